import Foundation
import VisionCore

/// The error MediaPipe tasks throw: domain `com.google.mediapipe.tasks`, a ``TasksErrorCode`` and
/// MediaPipe's message. Bridged to `NSError`, so `(error as NSError).domain`, `.code` and
/// `.localizedDescription` read as on iOS.
public struct TasksError: Error, CustomNSError, LocalizedError, Equatable, Sendable, CustomStringConvertible {
    /// `MPPTasksErrorDomain`.
    public static let domain = "com.google.mediapipe.tasks"

    public let code: TasksErrorCode
    /// The full message, as `localizedDescription` shows it.
    public let message: String

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

    public static var errorDomain: String { domain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    public var errorDescription: String? { message }
    public var description: String { message }
}
