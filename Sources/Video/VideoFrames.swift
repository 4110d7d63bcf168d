import Dispatch
import Foundation
import Synchronization

/// A ``VideoReader``'s frames as an async sequence (``VideoReader/frames(bufferSize:)``): a thread of
/// the sequence's own decodes ahead, at most `bufferSize` frames waiting; each iterator starts its
/// own decoding thread and continues the reader where it is. Ends at the end of the stream, throws
/// the reader's error, and stops decoding when the iterating task is cancelled or the iterator is dropped.
public struct VideoFrames: AsyncSequence, Sendable {
    /// The decoded frames.
    public typealias Element = VideoFrame
    /// A decoding error ends the sequence.
    public typealias Failure = any Error

    let reader: VideoReader
    let bufferSize: Int

    /// Starts decoding ahead on a thread of its own.
    public func makeAsyncIterator() -> Iterator {
        // Created at 0 and raised: libdispatch traps when a semaphore is released below its initial value.
        let slots = DispatchSemaphore(value: 0)
        for _ in 0..<Swift.max(1, bufferSize) { slots.signal() }
        let stopped = Stop()
        let (stream, continuation) = AsyncThrowingStream<VideoFrame, any Error>.makeStream()
        continuation.onTermination = { _ in
            stopped.flag.store(true, ordering: .relaxed)
            slots.signal()
        }
        let thread = Thread { [reader] in
            while true {
                slots.wait()
                if stopped.flag.load(ordering: .relaxed) { break }
                do {
                    guard let frame = try reader.nextFrame() else {
                        continuation.finish()
                        break
                    }
                    continuation.yield(frame)
                } catch {
                    continuation.finish(throwing: error)
                    break
                }
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
        return Iterator(frames: stream.makeAsyncIterator(), slots: slots)
    }

    /// Tells the decoding thread to stop.
    final class Stop: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// Takes the decoded frames in order, freeing a slot for the decoder with each.
    public struct Iterator: AsyncIteratorProtocol {
        var frames: AsyncThrowingStream<VideoFrame, any Error>.AsyncIterator
        let slots: DispatchSemaphore

        /// The next frame, waiting for the decoder; nil after the last.
        public mutating func next() async throws -> VideoFrame? {
            try await next(isolation: nil)
        }

        /// The next frame, waiting for the decoder; nil after the last (the caller's isolation kept).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> VideoFrame? {
            let frame = try await frames.next(isolation: actor)
            if frame != nil { slots.signal() }
            return frame
        }
    }
}
