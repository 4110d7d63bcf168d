import VisionPipeline

/// One HTTP request as `vision-tasks serve` sees it once libmicrohttpd has read it: the method, the
/// path, headers (names lowercased), URL-decoded query arguments, and the body — whole, or as the
/// parts of a `multipart/form-data` form.
package struct HTTPRequest: Sendable {
    /// One part of a multipart form.
    package struct Part: Sendable {
        package var name: String
        package var filename: String?
        package var contentType: String?
        package var data: [UInt8]
    }

    /// Whether the body arrived.
    package enum BodyState: Sendable {
        case complete
        /// Larger than the server's `--max-body` (not read when its length was declared).
        case tooLarge
        /// A multipart form that could not be parsed.
        case malformedForm
    }

    package var method: String
    package var path: String
    package var headers: [String: String]
    package var query: [(name: String, value: String)]
    package var body: [UInt8]
    package var parts: [Part]
    package var bodyState: BodyState
    package var client: String

    /// The first query argument named `name`.
    package func argument(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The text of the form field `name` (multipart), if any.
    package func field(_ name: String) -> String? {
        parts.first { $0.name == name && $0.filename == nil }.map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// The picture a request carries: the form's `image` part, else its first file, else the whole
    /// body (a picture posted as it is); with the file name it came with.
    package var picture: (bytes: [UInt8], name: String?)? {
        if !parts.isEmpty {
            let part = parts.first { $0.name == "image" } ?? parts.first { $0.filename != nil }
            return part.map { ($0.data, $0.filename) }
        }
        return body.isEmpty ? nil : (body, nil)
    }
}
