import CZMQ
import Foundation
import VisionPipeline

/// One ZMQ REP socket (libzmq through `CZMQ`), used from one thread: receive a request's frames,
/// send exactly one reply.
// @unchecked Sendable: made on one thread and handed to the one thread that then uses it alone (a
// ZMQ socket must not be shared between threads); the handle is immutable.
package final class ZMQSocket: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The endpoint it is bound to (a `tcp://…:*` wildcard resolved to its port).
    package let endpoint: String

    /// Binds to `endpoint`; frames over `maxFrame` bytes are refused by libzmq; a receive waits at
    /// most `timeoutMs`.
    package init(endpoint: String, maxFrame: Int, timeoutMs: Int) throws {
        var error = [CChar](repeating: 0, count: 512)
        var handle: OpaquePointer?
        guard vt_zmq_bind(endpoint, Int64(maxFrame), Int32(clamping: timeoutMs), &handle, &error, error.count) == 0,
            let handle
        else { throw ServeError(500, "serve: ZMQ: " + Self.text(error)) }
        self.handle = handle
        var bound = [CChar](repeating: 0, count: 512)
        vt_zmq_endpoint(handle, &bound, bound.count)
        self.endpoint = Self.text(bound)
    }

    deinit { vt_zmq_close(handle) }

    private static func text(_ c: [CChar]) -> String {
        String(decoding: c.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The next request's frames (at most `maxFrames` kept; the count received is `received`), or nil
    /// when none came before the timeout.
    package func receive(maxFrames: Int = 4) throws -> (frames: [[UInt8]], received: Int)? {
        var error = [CChar](repeating: 0, count: 512)
        let count = vt_zmq_receive(handle, maxFrames, &error, error.count)
        if count < 0 { throw ServeError(500, "ZMQ: " + Self.text(error)) }
        if count == 0 { return nil }
        var frames: [[UInt8]] = []
        for i in 0..<min(Int(count), maxFrames) {
            var size = 0
            guard let data = vt_zmq_frame(handle, i, &size) else { break }
            frames.append(Array(UnsafeBufferPointer(start: data, count: size)))
        }
        return (frames, Int(count))
    }

    /// Sends one reply.
    package func send(_ frames: [[UInt8]]) throws {
        var error = [CChar](repeating: 0, count: 512)
        var sizes = frames.map(\.count)
        let status = Self.withPointers(frames) { pointers in
            vt_zmq_send(handle, pointers, &sizes, frames.count, &error, error.count)
        }
        if status != 0 { throw ServeError(500, "ZMQ: " + Self.text(error)) }
    }

    /// Runs `body` with the base addresses of `frames` (empty frames point at a byte of their own).
    private static func withPointers<T>(_ frames: [[UInt8]], _ body: ([UnsafePointer<UInt8>?]) -> T) -> T {
        var joined: [UInt8] = frames.flatMap { $0 }
        joined.append(0)
        return joined.withUnsafeBufferPointer { all in
            var offset = 0
            var pointers: [UnsafePointer<UInt8>?] = []
            for frame in frames {
                pointers.append(all.baseAddress.map { $0 + offset })
                offset += frame.count
            }
            return body(pointers)
        }
    }
}
