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
            code = e.code == .cannotOpen ? 5 : 3
            message = e.message
        case let e as PipelineError:
            domain = "vision-tasks"
            if case .usage = e { code = 64 } else { code = 1 }
            message = e.description
        default: domain = "vision-tasks"; code = 1; message = "\(error)"
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
