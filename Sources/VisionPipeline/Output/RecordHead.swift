/// The head of every record — what it is about, and the size its boxes are in — declared once for the
/// records `--jsonl` writes, the live runner's and the server's answers.
package enum RecordHead {
    /// A picture's head: its source and, once decoded, its shown size.
    package static func picture(_ source: String, width: Int? = nil, height: Int? = nil) -> [(String, JSONValue)] {
        var head: [(String, JSONValue)] = [("source", .string(source))]
        if let width, let height { head += [("width", .int(width)), ("height", .int(height))] }
        return head
    }

    /// A video frame's head: its source, its number and time in the video, and its size.
    package static func frame(
        _ source: String, number: Int, timestampMs: Int, width: Int, height: Int
    ) -> [(String, JSONValue)] {
        [
            ("source", .string(source)), ("frame", .int(number)), ("timestampMs", .int(timestampMs)),
            ("width", .int(width)), ("height", .int(height)),
        ]
    }

    /// The record of an input that failed: its source and the failure (`error`: domain, code, message).
    package static func failure(_ source: String, _ failure: ItemFailure) -> [(String, JSONValue)] {
        [("source", .string(source)), ("error", failure.json)]
    }
}
