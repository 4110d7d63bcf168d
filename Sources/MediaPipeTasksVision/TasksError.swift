import Foundation
import VisionCore

// @unchecked Sendable: restated from `NSError`; immutable (`let`s of Sendable types).
/// The error MediaPipe tasks throw: an `NSError` in domain `com.google.mediapipe.tasks` with a
/// ``TasksErrorCode`` and MediaPipe's message, so iOS code that catches `let error as NSError` and
/// reads `domain`, `code` and `localizedDescription` works unchanged.
public final class TasksError: NSError, @unchecked Sendable {
    /// `MPPTasksErrorDomain`.
    public static let domain = "com.google.mediapipe.tasks"

    /// MediaPipe's error code, typed (`code` holds the same value as an `Int`).
    public let tasksCode: TasksErrorCode
    /// The full message, as `localizedDescription` shows it.
    public let message: String

    /// An error with MediaPipe's `code` and `message`; `underlying`, the lower layer's error it was
    /// made from, goes in `userInfo[NSUnderlyingErrorKey]` (as Foundation's errors carry their cause).
    public init(code: TasksErrorCode, message: String, underlying: (any Error)? = nil) {
        tasksCode = code
        self.message = message
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        super.init(domain: Self.domain, code: Int(code.rawValue), userInfo: info)
    }

    /// The error this one was made from, if any (`userInfo[NSUnderlyingErrorKey]`).
    public var underlyingError: (any Error)? { userInfo[NSUnderlyingErrorKey] as? any Error }

    /// Not supported: tasks errors are not archived.
    public required init?(coder: NSCoder) { nil }

    convenience init(_ core: VisionCoreError) {
        self.init(
            code: TasksErrorCode(rawValue: UInt(core.code.rawValue)) ?? .unknownError, message: core.description,
            underlying: core)
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
