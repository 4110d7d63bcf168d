import Foundation
import VisionCore

// @unchecked Sendable: restated from `NSError`; immutable (`let`s of Sendable types).
/// The error ML Kit APIs report: an `NSError` in domain ``domain`` with an ``MLKitErrorCode`` and an
/// actionable message, so that `catch let error as NSError` works as on iOS.
public final class MLKitError: NSError, @unchecked Sendable {
    /// The error domain of every ML Kit error on Linux.
    public static let domain = "com.google.mlkit"

    /// The typed code (`code` holds the same value).
    public let mlkitCode: MLKitErrorCode
    /// The message (`localizedDescription`).
    public let message: String

    /// An error with `code` and `message`; `underlying`, the lower layer's error it was made from,
    /// goes in `userInfo[NSUnderlyingErrorKey]`.
    public init(_ code: MLKitErrorCode, _ message: String, underlying: (any Error)? = nil) {
        mlkitCode = code
        self.message = message
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        super.init(domain: Self.domain, code: code.rawValue, userInfo: info)
    }

    /// The error this one was made from, if any (`userInfo[NSUnderlyingErrorKey]`).
    public var underlyingError: (any Error)? { userInfo[NSUnderlyingErrorKey] as? any Error }

    /// Not supported: ML Kit errors are not archived.
    public required init?(coder: NSCoder) { nil }

    /// A core error as ML Kit reports it, `prefix` first (e.g. "Failed to initialize labeler.").
    package convenience init(_ core: VisionCoreError, prefix: String? = nil) {
        let code = MLKitErrorCode(rawValue: core.code.rawValue) ?? .unknown
        let text = core.message
        self.init(code, prefix.map { "\($0) \(text)" } ?? text, underlying: core)
    }

    /// The message.
    public override var localizedDescription: String { message }
    /// The message.
    public override var description: String { message }
}
