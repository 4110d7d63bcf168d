import Foundation
import MLKit
import MediaPipeTasksVision
import Video

/// Why one input could not be processed: the error's domain, code and message, as the record's
/// `error` field and the process's exit status report it. Other inputs are still processed.
struct ItemFailure: Error {
    let domain: String
    let code: Int
    let message: String

    /// The failure an error describes (MediaPipe's and ML Kit's keep their domain and code).
    init(_ error: Error) {
        switch error {
        case let e as TasksError: domain = TasksError.domain; code = e.code; message = e.message
        case let e as MLKitError: domain = MLKitError.domain; code = e.code; message = e.message
        case let e as VideoError:
            domain = "vision-tasks.video"
            code = e.code == .cannotOpen ? 5 : 3
            message = e.message
        case let e as CLIError:
            domain = "vision-tasks"
            code = Int(e.exitCode)
            message = e.description
        default: domain = "vision-tasks"; code = 1; message = "\(error)"
        }
    }

    /// The `error` field of a record.
    var json: JSONValue { .object([("domain", .string(domain)), ("code", .int(code)), ("message", .string(message))]) }
}
