import Dispatch
import Foundation
import Locking

// @unchecked Sendable: one immutable key, used by identity only. (Swift 6.0's Dispatch does not mark
// DispatchSpecificKey Sendable; later ones do.)
private final class SharedQueueLabelKey: @unchecked Sendable {
    static let shared = SharedQueueLabelKey()
    let key = DispatchSpecificKey<String>()
}

/// MediaPipe's live-stream flow control: at most one frame in flight and one waiting. A frame that
/// arrives while one is waiting replaces it; the replaced (older) frame is dropped without a
/// callback. Results and errors are delivered in submission order on one serial queue.
package final class LiveStreamRunner<Frame: Sendable, Output: Sendable>: Sendable {
    private let process: @Sendable (Frame) throws -> Output
    private let deliver: @Sendable (Result<Output, Error>, Int) -> Void
    private let worker: DispatchQueue
    /// The serial queue results are delivered on.
    package let callbackQueue: DispatchQueue
    /// Set on every callback queue to its label (lets code and tests tell where they run).
    package static var queueLabelKey: DispatchSpecificKey<String> { SharedQueueLabelKey.shared.key }
    private let idle = NSCondition()
    private let state = Locked(State())
    private struct State {
        var inFlight = false
        var waiting: (Frame, Int)?
        var dropped = 0
        var accepted = 0
    }

    /// - Parameters:
    ///   - label: names the callback queue (`com.mediapipe.tasks.vision.<label>_<uuid>`).
    ///   - process: runs a frame (on a worker queue).
    ///   - deliver: receives each processed frame's result and timestamp (on the callback queue).
    package init(
        label: String, process: @escaping @Sendable (Frame) throws -> Output,
        deliver: @escaping @Sendable (Result<Output, Error>, Int) -> Void
    ) {
        self.process = process
        self.deliver = deliver
        let id = UUID().uuidString
        worker = DispatchQueue(label: "com.visiontasks.\(label).worker_\(id)", qos: .userInitiated)
        let callbackLabel = "com.mediapipe.tasks.vision.\(label)_\(id)"
        callbackQueue = DispatchQueue(label: callbackLabel)
        callbackQueue.setSpecific(key: SharedQueueLabelKey.shared.key, value: callbackLabel)
    }

    /// Frames dropped so far because a newer one replaced them while waiting.
    package var droppedFrameCount: Int { state.withLock { $0.dropped } }
    /// Frames accepted so far (processed or waiting).
    package var acceptedFrameCount: Int { state.withLock { $0.accepted } }

    /// Hands a frame over; returns at once.
    package func submit(_ frame: Frame, timestamp: Int) {
        let startNow = state.withLock { state in
            state.accepted += 1
            guard state.inFlight else {
                state.inFlight = true
                return true
            }
            if state.waiting != nil { state.dropped += 1; state.accepted -= 1 }
            state.waiting = (frame, timestamp)
            return false
        }
        if startNow { start(frame, timestamp) }
    }

    private func start(_ frame: Frame, _ timestamp: Int) {
        worker.async { [self] in
            let result = Result { try process(frame) }
            callbackQueue.async { [deliver] in deliver(result, timestamp) }
            let next = state.withLock { state in
                defer { state.waiting = nil }
                if state.waiting == nil { state.inFlight = false }
                return state.waiting
            }
            if let next {
                start(next.0, next.1)
            } else {
                idle.lock()
                idle.broadcast()
                idle.unlock()
            }
        }
    }

    /// Blocks until no frame is in flight or waiting and every callback has run.
    package func waitUntilIdle() {
        idle.lock()
        while state.withLock({ $0.inFlight }) { _ = idle.wait(until: Date().addingTimeInterval(0.05)) }
        idle.unlock()
        callbackQueue.sync {}
    }
}
