import CHTTPServer
import Foundation
import Locking
import VisionPipeline

/// Answers one request of the HTTP server, exactly once, from any thread: later calls do nothing
/// (the request's memory belongs to libmicrohttpd again after the first).
// @unchecked Sendable: the C request is used only by the first `respond` (under `answered`'s lock),
// which hands it back to the daemon; never afterwards.
package final class HTTPResponder: @unchecked Sendable {
    private let request: OpaquePointer
    private let answered = Locked(false)
    /// Called once with the status given, after the answer is handed over (metrics).
    private let done: @Sendable (Int) -> Void

    package init(_ request: OpaquePointer, done: @escaping @Sendable (Int) -> Void) {
        self.request = request
        self.done = done
    }

    /// Whether the request has been answered.
    package var isAnswered: Bool { answered.withLock { $0 } }

    /// Answers with `response`; returns false when the request was answered already.
    @discardableResult
    package func respond(_ response: HTTPResponse) -> Bool {
        let first = answered.withLock { answered in
            defer { answered = true }
            return !answered
        }
        guard first else { return false }
        // The header texts as C strings for the call (copied by libmicrohttpd, freed here).
        let copies = response.headers.compactMap { header in
            strdup(header.name).flatMap { name in strdup(header.value).map { (name, $0) } }
        }
        defer {
            for (name, value) in copies {
                free(name)
                free(value)
            }
        }
        var cNames: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0.0) }
        var cValues: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0.1) }
        response.body.withUnsafeBufferPointer { body in
            cNames.withUnsafeMutableBufferPointer { n in
                cValues.withUnsafeMutableBufferPointer { v in
                    vt_http_respond(
                        request, UInt32(response.status), response.contentType, body.baseAddress, body.count,
                        n.baseAddress, v.baseAddress, n.count)
                }
            }
        }
        done(response.status)
        return true
    }
}
