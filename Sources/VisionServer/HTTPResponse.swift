import VisionPipeline

/// An answer to an HTTP request: status, content type, body and extra headers.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var contentType: String
    package var body: [UInt8]
    package var headers: [(name: String, value: String)] = []

    /// A JSON answer.
    package static func json(
        _ status: Int, _ value: JSONValue, headers: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Array(value.text.utf8), headers: headers)
    }

    /// A plain-text answer.
    package static func text(
        _ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8"
    ) -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: Array(text.utf8))
    }
}
