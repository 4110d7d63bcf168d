import Foundation

/// The one error type of the core: a canonical status code (the `absl::StatusCode` numbers that
/// MediaPipe's `TasksErrorCode` mirrors) and MediaPipe's message for the same situation.
package struct VisionCoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Canonical status codes, numbered as MediaPipe's `TasksErrorCode`.
    package enum Code: Int, Sendable {
        case cancelled = 1, unknown = 2, invalidArgument = 3, deadlineExceeded = 4, notFound = 5
        case alreadyExists = 6, permissionDenied = 7, resourceExhausted = 8, failedPrecondition = 9
        case aborted = 10, outOfRange = 11, unimplemented = 12, `internal` = 13, unavailable = 14
        case dataLoss = 15, unauthenticated = 16

        /// The canonical name used as the message prefix (`INVALID_ARGUMENT`, …).
        package var canonicalName: String {
            switch self {
            case .cancelled: return "CANCELLED"
            case .unknown: return "UNKNOWN"
            case .invalidArgument: return "INVALID_ARGUMENT"
            case .deadlineExceeded: return "DEADLINE_EXCEEDED"
            case .notFound: return "NOT_FOUND"
            case .alreadyExists: return "ALREADY_EXISTS"
            case .permissionDenied: return "PERMISSION_DENIED"
            case .resourceExhausted: return "RESOURCE_EXHAUSTED"
            case .failedPrecondition: return "FAILED_PRECONDITION"
            case .aborted: return "ABORTED"
            case .outOfRange: return "OUT_OF_RANGE"
            case .unimplemented: return "UNIMPLEMENTED"
            case .internal: return "INTERNAL"
            case .unavailable: return "UNAVAILABLE"
            case .dataLoss: return "DATA_LOSS"
            case .unauthenticated: return "UNAUTHENTICATED"
            }
        }
    }

    /// The specific conditions a caller may act on (the command line adds its fixes to them), keyed
    /// here rather than read from a message's wording.
    package enum Condition: String, Sendable {
        /// LiteRT's `libLiteRt.so` was not found, or lacks the functions the tasks call.
        case runtimeUnavailable
        /// A detector model without the TFLite metadata MediaPipe requires.
        case detectorMetadataMissing
        /// A model whose output needs labels (ML Kit's label texts) has no label file in its metadata.
        case labelsMissing
        /// A float32 input without `NormalizationOptions` in its metadata.
        case normalizationMissing
        /// A single `[1, A, B]` output that no YOLO layout rule identifies (name it in the options).
        case yoloLayoutUnknown
    }

    package let code: Code
    /// The message without the code prefix.
    package let message: String
    /// Whether MediaPipe raises this from its C++ core (messages then read `"CODE_NAME: message"`)
    /// rather than from its iOS layer (no prefix).
    package let fromCore: Bool
    /// The lower layer's error this one was made from (a `LiteRTError`, `TFLiteModelError`,
    /// `ImagingError`, `FileInputError`…), kept for diagnosis; nil when the core raised it itself.
    package let underlying: (any Error)?
    /// The condition this error reports, when it is one a caller may act on.
    package let condition: Condition?

    package init(
        _ code: Code, _ message: String, fromCore: Bool = true, underlying: (any Error)? = nil,
        condition: Condition? = nil
    ) {
        self.code = code
        self.message = message
        self.fromCore = fromCore
        self.underlying = underlying
        self.condition = condition
    }

    /// The condition of the first error along `error`'s chain of causes (a `VisionCoreError`, or the
    /// core error inside a facade's `NSError` under `NSUnderlyingErrorKey`), if any.
    package static func condition(of error: any Error) -> Condition? {
        var next: (any Error)? = error
        for _ in 0..<8 {
            guard let current = next else { return nil }
            if let core = current as? VisionCoreError {
                if let condition = core.condition { return condition }
                next = core.underlying
            } else {
                next = (current as NSError).userInfo[NSUnderlyingErrorKey] as? any Error
            }
        }
        return nil
    }

    /// Same code, message and kind (the underlying error is not compared).
    package static func == (a: VisionCoreError, b: VisionCoreError) -> Bool {
        a.code == b.code && a.message == b.message && a.fromCore == b.fromCore
    }

    /// The message as MediaPipe shows it (`localizedDescription`).
    package var description: String { fromCore ? "\(code.canonicalName): \(message)" : message }
}
