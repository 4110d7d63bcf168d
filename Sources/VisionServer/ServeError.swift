import MLKit
import MediaPipeTasksVision
import VisionPipeline

/// Why `serve` refuses a request: the HTTP status and a message saying what to change.
package struct ServeError: Error, Sendable {
    package var status: Int
    package var message: String
    /// A refusal reason for the metrics (nil: a client error not counted as a refusal).
    package var reason: String?
    package var headers: [(name: String, value: String)] = []

    package init(_ status: Int, _ message: String, reason: String? = nil, headers: [(name: String, value: String)] = [])
    {
        self.status = status
        self.message = message
        self.reason = reason
        self.headers = headers
    }

    /// The body of a refusal on our own API: the records' error object.
    package var json: JSONValue {
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
