import Foundation
import VisionCore

/// The error MediaPipe tasks throw: an `NSError` in domain `com.google.mediapipe.tasks` with a
/// ``TasksErrorCode`` and MediaPipe's message, so iOS code that catches `let error as NSError` and
/// reads `domain`, `code` and `localizedDescription` works unchanged.
// @unchecked Sendable: restated from `NSError`; immutable (`let`s of Sendable types).
public final class TasksError: NSError, @unchecked Sendable {
    /// `MPPTasksErrorDomain`.
    public static let domain = "com.google.mediapipe.tasks"

    /// MediaPipe's error code, typed (`code` holds the same value as an `Int`).
    public let tasksCode: TasksErrorCode
    /// The full message, as `localizedDescription` shows it.
    public let message: String

    /// An error with MediaPipe's `code` and `message`.
    public init(code: TasksErrorCode, message: String) {
        tasksCode = code
        self.message = message
        super.init(domain: Self.domain, code: Int(code.rawValue), userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// Not supported: tasks errors are not archived.
    public required init?(coder: NSCoder) { nil }

    convenience init(_ core: VisionCoreError) {
        self.init(code: TasksErrorCode(rawValue: UInt(core.code.rawValue)) ?? .unknownError, message: core.description)
    }

    /// Runs `body`, turning core errors into ``TasksError``.
    static func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as VisionCoreError { throw TasksError(e) }
    }

    /// The message.
    public override var localizedDescription: String { message }
    /// The message.
    public override var description: String { message }

    /// Same domain, code and message.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? TasksError else { return false }
        return other.tasksCode == tasksCode && other.message == message
    }

    /// A hash of the code and message.
    public override var hash: Int { tasksCode.hashValue ^ message.hashValue }
}
