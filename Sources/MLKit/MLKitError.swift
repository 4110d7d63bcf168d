import Foundation
import VisionCore

/// The error ML Kit APIs report: an `NSError` in domain ``domain`` with an ``MLKitErrorCode`` and an
/// actionable message, so that `catch let error as NSError` works as on iOS.
// @unchecked Sendable: restated from `NSError`; immutable (`let`s of Sendable types).
public final class MLKitError: NSError, @unchecked Sendable {
    /// The error domain of every ML Kit error on Linux.
    public static let domain = "com.google.mlkit"

    /// The typed code (`code` holds the same value).
    public let mlkitCode: MLKitErrorCode
    /// The message (`localizedDescription`).
    public let message: String

    /// An error with `code` and `message`.
    public init(_ code: MLKitErrorCode, _ message: String) {
        mlkitCode = code
        self.message = message
        super.init(domain: Self.domain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// Not supported: ML Kit errors are not archived.
    public required init?(coder: NSCoder) { nil }

    /// A core error as ML Kit reports it, `prefix` first (e.g. "Failed to initialize labeler.").
    convenience init(_ core: VisionCoreError, prefix: String? = nil) {
        let code = MLKitErrorCode(rawValue: core.code.rawValue) ?? .unknown
        let text = core.message
        self.init(code, prefix.map { "\($0) \(text)" } ?? text)
    }

    /// The message.
    public override var localizedDescription: String { message }
    /// The message.
    public override var description: String { message }
}
