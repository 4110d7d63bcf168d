import CHTTPServer
import Foundation
import VisionPipeline

/// The HTTP server of `vision-tasks serve`: libmicrohttpd (through `CHTTPServer`) reads requests on
/// its own thread and hands each complete one to `handler`, which must return quickly — answering at
/// once, or handing the request's responder to a worker that answers later.
// @unchecked Sendable: the daemon handle is written once in `init` and used only by `quiesce` and
// `stop` (called by the command's main thread, once each); the handler is immutable.
package final class HTTPServer: @unchecked Sendable {
    /// Limits of the listening daemon.
    package struct Limits: Sendable {
        package var connections = 256
        package var perClient = 0
        package var idleSeconds = 30
        package var maxBody = 20 << 20
        package var maxHeader = 64 << 10
    }

    package typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void

    private var daemon: OpaquePointer?
    private let handler: Handler
    private let done: @Sendable (Int) -> Void
    /// The port it listens on.
    package private(set) var port: Int = 0

    /// Listens on `host` (a numeric address) and `port` (0: any free one). `done` is told each
    /// answer's status.
    package init(
        host: String, port: Int, limits: Limits, done: @escaping @Sendable (Int) -> Void, handler: @escaping Handler
    ) throws {
        self.handler = handler
        self.done = done
        var error = [CChar](repeating: 0, count: 512)
        var server: OpaquePointer?
        let status = host.withCString { hostText in
            var config = vt_http_config(
                host: hostText, port: UInt16(clamping: port), connection_limit: UInt32(clamping: limits.connections),
                per_ip_limit: UInt32(clamping: limits.perClient), timeout_seconds: UInt32(clamping: limits.idleSeconds),
                max_body: limits.maxBody, max_header: limits.maxHeader)
            return vt_http_start(
                &config, Self.callback, Unmanaged.passUnretained(self).toOpaque(), &server, &error, error.count)
        }
        guard status == 0, let server else {
            throw ServeError(
                500,
                "serve: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        daemon = server
        self.port = Int(vt_http_port(server))
    }

    /// The C handler: the request read into Swift values, then handed over.
    private static let callback: vt_http_handler = { context, request in
        guard let context, let request else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        server.handler(read(request), HTTPResponder(request, done: server.done))
    }

    private static func string(_ text: UnsafePointer<CChar>?) -> String { text.map { String(cString: $0) } ?? "" }

    private static func read(_ r: OpaquePointer) -> HTTPRequest {
        var headers: [String: String] = [:]
        for i in 0..<vt_http_header_count(r) {
            var name: UnsafePointer<CChar>?
            var value: UnsafePointer<CChar>?
            vt_http_header(r, i, &name, &value)
            headers[string(name).lowercased()] = string(value)
        }
        var query: [(name: String, value: String)] = []
        for i in 0..<vt_http_argument_count(r) {
            var name: UnsafePointer<CChar>?
            var value: UnsafePointer<CChar>?
            vt_http_argument(r, i, &name, &value)
            query.append((string(name), string(value)))
        }
        var size = 0
        let bodyPointer = vt_http_body(r, &size)
        let body = bodyPointer.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        var parts: [HTTPRequest.Part] = []
        for i in 0..<vt_http_part_count(r) {
            var name: UnsafePointer<CChar>?
            var filename: UnsafePointer<CChar>?
            var type: UnsafePointer<CChar>?
            var data: UnsafePointer<UInt8>?
            var count = 0
            vt_http_part(r, i, &name, &filename, &type, &data, &count)
            parts.append(
                .init(
                    name: string(name), filename: filename.map { String(cString: $0) },
                    contentType: type.map { String(cString: $0) },
                    data: data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []))
        }
        let state: HTTPRequest.BodyState
        switch vt_http_body_state(r) {
        case 1: state = .tooLarge
        case 2: state = .malformedForm
        default: state = .complete
        }
        return HTTPRequest(
            method: string(vt_http_method(r)), path: string(vt_http_path(r)), headers: headers, query: query,
            body: body,
            parts: parts, bodyState: state, client: string(vt_http_client(r)))
    }

    /// Stops accepting connections — a new client is refused at once — while requests already
    /// accepted are still answered. False if the server was not listening.
    @discardableResult
    package func quiesce() -> Bool {
        guard let daemon else { return false }
        return vt_http_quiesce(daemon) == 0
    }

    /// Stops the daemon (every request handed over must have been answered).
    package func stop() {
        if let daemon { vt_http_stop(daemon) }
        daemon = nil
    }
}
