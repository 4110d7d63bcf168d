/// One HTTP request as `vision-tasks serve` sees it once libmicrohttpd has read it: the method, the
/// path, headers (names lowercased), URL-decoded query arguments, and the body — whole, or as the
/// parts of a `multipart/form-data` form.
struct HTTPRequest: Sendable {
    /// One part of a multipart form.
    struct Part: Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        var data: [UInt8]
    }

    /// Whether the body arrived.
    enum BodyState: Sendable {
        case complete
        /// Larger than the server's `--max-body` (not read when its length was declared).
        case tooLarge
        /// A multipart form that could not be parsed.
        case malformedForm
    }

    var method: String
    var path: String
    var headers: [String: String]
    var query: [(name: String, value: String)]
    var body: [UInt8]
    var parts: [Part]
    var bodyState: BodyState
    var client: String

    /// The first query argument named `name`.
    func argument(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The text of the form field `name` (multipart), if any.
    func field(_ name: String) -> String? {
        parts.first { $0.name == name && $0.filename == nil }.map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// The picture a request carries: the form's `image` part, else its first file, else the whole
    /// body (a picture posted as it is); with the file name it came with.
    var picture: (bytes: [UInt8], name: String?)? {
        if !parts.isEmpty {
            let part = parts.first { $0.name == "image" } ?? parts.first { $0.filename != nil }
            return part.map { ($0.data, $0.filename) }
        }
        return body.isEmpty ? nil : (body, nil)
    }
}
