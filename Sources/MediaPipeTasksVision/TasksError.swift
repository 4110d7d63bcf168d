import Foundation
import VisionCore

/// The error MediaPipe tasks throw: domain `com.google.mediapipe.tasks`, a ``TasksErrorCode`` and
/// MediaPipe's message. Bridged to `NSError`, so `(error as NSError).domain`, `.code` and
/// `.localizedDescription` read as on iOS.
public struct TasksError: Error, CustomNSError, LocalizedError, Equatable, Sendable, CustomStringConvertible {
    /// `MPPTasksErrorDomain`.
    public static let domain = "com.google.mediapipe.tasks"

    /// MediaPipe's error code.
    public let code: TasksErrorCode
    /// The full message, as `localizedDescription` shows it.
    public let message: String

    /// An error with MediaPipe's `code` and `message`.
    public init(code: TasksErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    init(_ core: VisionCoreError) {
        self.init(code: TasksErrorCode(rawValue: core.code.rawValue) ?? .unknownError, message: core.description)
    }

    /// Runs `body`, turning core errors into ``TasksError``.
    static func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as VisionCoreError { throw TasksError(e) }
    }

    /// `com.google.mediapipe.tasks`, for `NSError` bridging.
    public static var errorDomain: String { domain }
    /// The code as `NSError.code`.
    public var errorCode: Int { code.rawValue }
    /// The message as `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// The message (`localizedDescription`).
    public var errorDescription: String? { message }
    /// The message.
    public var description: String { message }
}
