import MLKit
import MediaPipeTasksVision

/// Why `serve` refuses a request: the HTTP status and a message saying what to change.
struct ServeError: Error, Sendable {
    var status: Int
    var message: String
    /// A refusal reason for the metrics (nil: a client error not counted as a refusal).
    var reason: String?
    var headers: [(name: String, value: String)] = []

    init(_ status: Int, _ message: String, reason: String? = nil, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.message = message
        self.reason = reason
        self.headers = headers
    }

    /// The status a task's failure answers with: the caller's mistake (a picture that does not
    /// decode, options the task refuses: code 3) is 400, a missing file 404, anything else 500.
    static func status(of failure: ItemFailure) -> Int {
        switch failure.code {
        case 3, 11: return 400
        case 5: return 404
        default: return 500
        }
    }

    /// The body of a refusal on our own API: the records' error object.
    var json: JSONValue {
        .object([
            (
                "error",
                .object([
                    ("domain", .string("vision-tasks.serve")), ("code", .int(status)), ("message", .string(message)),
                ])
            )
        ])
    }
}
