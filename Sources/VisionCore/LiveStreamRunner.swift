import Dispatch
import Foundation

private let sharedQueueLabelKey = DispatchSpecificKey<String>()

/// MediaPipe's live-stream flow control: at most one frame in flight and one waiting. A frame that
/// arrives while one is waiting replaces it; the replaced (older) frame is dropped without a
/// callback. Results and errors are delivered in submission order on one serial queue.
public final class LiveStreamRunner<Frame: Sendable, Output: Sendable>: @unchecked Sendable {
    private let process: @Sendable (Frame) throws -> Output
    private let deliver: @Sendable (Result<Output, Error>, Int) -> Void
    private let worker: DispatchQueue
    /// The serial queue results are delivered on.
    public let callbackQueue: DispatchQueue
    /// Set on every callback queue to its label (lets code and tests tell where they run).
    public static var queueLabelKey: DispatchSpecificKey<String> { sharedQueueLabelKey }
    private let lock = NSLock()
    private let idle = NSCondition()
    private var inFlight = false
    private var waiting: (Frame, Int)?
    private var dropped = 0
    private var accepted = 0

    /// - Parameters:
    ///   - label: names the callback queue (`com.mediapipe.tasks.vision.<label>_<uuid>`).
    ///   - process: runs a frame (on a worker queue).
    ///   - deliver: receives each processed frame's result and timestamp (on the callback queue).
    public init(label: String, process: @escaping @Sendable (Frame) throws -> Output,
                deliver: @escaping @Sendable (Result<Output, Error>, Int) -> Void) {
        self.process = process
        self.deliver = deliver
        let id = UUID().uuidString
        worker = DispatchQueue(label: "com.visiontasks.\(label).worker_\(id)", qos: .userInitiated)
        let callbackLabel = "com.mediapipe.tasks.vision.\(label)_\(id)"
        callbackQueue = DispatchQueue(label: callbackLabel)
        callbackQueue.setSpecific(key: sharedQueueLabelKey, value: callbackLabel)
    }

    /// Frames dropped so far because a newer one replaced them while waiting.
    public var droppedFrameCount: Int { lock.withLock { dropped } }
    /// Frames accepted so far (processed or waiting).
    public var acceptedFrameCount: Int { lock.withLock { accepted } }

    /// Hands a frame over; returns at once.
    public func submit(_ frame: Frame, timestamp: Int) {
        lock.lock()
        if inFlight {
            if waiting != nil { dropped += 1; accepted -= 1 }
            waiting = (frame, timestamp)
            accepted += 1
            lock.unlock()
            return
        }
        inFlight = true
        accepted += 1
        lock.unlock()
        start(frame, timestamp)
    }

    private func start(_ frame: Frame, _ timestamp: Int) {
        worker.async { [self] in
            let result = Result { try process(frame) }
            callbackQueue.async { [deliver] in deliver(result, timestamp) }
            lock.lock()
            if let next = waiting {
                waiting = nil
                lock.unlock()
                start(next.0, next.1)
            } else {
                inFlight = false
                lock.unlock()
                idle.lock()
                idle.broadcast()
                idle.unlock()
            }
        }
    }

    /// Blocks until no frame is in flight or waiting and every callback has run.
    public func waitUntilIdle() {
        idle.lock()
        while lock.withLock({ inFlight }) { _ = idle.wait(until: Date().addingTimeInterval(0.05)) }
        idle.unlock()
        callbackQueue.sync {}
    }
}
