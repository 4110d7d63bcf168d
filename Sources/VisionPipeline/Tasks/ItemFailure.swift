import Foundation
import MLKit
import MediaPipeTasksVision
import Video

/// Why one input could not be processed: the error's domain, code and message, as the record's
/// `error` field and the process's exit status report it. Other inputs are still processed.
package struct ItemFailure: Error {
    package let domain: String
    package let code: Int
    package let message: String

    /// The domain of a video that cannot be read or decoded.
    package static let videoDomain = "vision-tasks.video"

    /// The failure an error describes (MediaPipe's and ML Kit's keep their domain and code).
    package init(_ error: Error) {
        switch error {
        case let e as ItemFailure: self = e
        case let e as TasksError: domain = TasksError.domain; code = e.code; message = e.message
        case let e as MLKitError: domain = MLKitError.domain; code = e.code; message = e.message
        case let e as VideoError:
            domain = Self.videoDomain
            code = Int((e.code == .cannotOpen ? TasksErrorCode.notFoundError : .invalidArgumentError).rawValue)
            message = e.message
        case let e as PipelineError:
            domain = "vision-tasks"
            if case .usage = e { code = Int(Self.usageStatus) } else { code = 1 }
            message = e.description
        default: domain = "vision-tasks"; code = 1; message = "\(error)"
        }
    }

    /// The exit status of a bad command line (sysexits' `EX_USAGE`), and the code of a usage failure.
    package static let usageStatus: Int32 = 64

    /// The exit status this failure gives the command line: its code when it is one of MediaPipe's
    /// (1…16) or the usage status, else 1.
    package var exitStatus: Int32 {
        code == Int(Self.usageStatus) || TasksErrorCode(rawValue: UInt(clamping: code)) != nil ? Int32(code) : 1
    }

    /// The HTTP status this failure answers with: the caller's mistake (an invalid argument such as a
    /// picture or video that does not decode, a value out of range) is 400, a missing entity 404, anything
    /// else 500.
    package var httpStatus: Int {
        switch TasksErrorCode(rawValue: UInt(clamping: code)) {
        case .invalidArgumentError, .outOfRangeError: return 400
        case .notFoundError: return 404
        default: return 500
        }
    }

    /// The failure as a line of the log: `SOURCE: error CODE (DOMAIN): MESSAGE`.
    package func line(source: String? = nil) -> String {
        (source.map { "\($0): " } ?? "") + "error \(code) (\(domain)): \(message)"
    }

    /// The `error` field of a record.
    package var json: JSONValue {
        .object([("domain", .string(domain)), ("code", .int(code)), ("message", .string(message))])
    }
}
