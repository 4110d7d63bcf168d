import Foundation
import Imaging
import Locking
import VisionCore

/// The running-mode rules every MediaPipe vision task shares: delegate rules at creation,
/// wrong-mode errors, image-mode timestamps (0, 1000, …), strictly increasing video and live
/// timestamps, mirrored orientations refused, and live-stream delivery through MediaPipe's flow
/// control (``LiveStreamRunner``) to the task's delegate and its async sequences. `Output` is what a
/// call computes, `Delivered` the task result a live-stream frame delivers.
final class VisionTaskRunner<Output: Sendable, Delivered: Sendable>: Sendable {
    let mode: RunningMode
    private let delegate: DelegateReference
    private let streams = LiveStreamResults<Result<Delivered, any Error>>()
    /// Calls are serialized under this lock (image-mode counter, last timestamp, live-stream hand-over).
    private let state = Locked(State())
    private struct State {
        var imageModeCalls = 0
        var lastTimestamp: Int?
        var live: LiveStreamRunner<(MPImage, NormalizedRect), Output>?
    }

    /// Checks MediaPipe's delegate rules (before any model is loaded). `asyncResults`: live-stream
    /// results go to an async sequence (a Linux extension), which stands in for the delegate.
    init(mode: RunningMode, delegate: AnyObject?, asyncResults: Bool = false) throws {
        let hasDelegate = delegate != nil
        if mode == .liveStream && !hasDelegate && !asyncResults {
            throw TasksError(
                code: .invalidArgumentError,
                message:
                    "The vision task is in live stream mode. An object must be set as the delegate of the task in its "
                    + "options to ensure asynchronous delivery of results."
            )
        }
        if mode != .liveStream && hasDelegate {
            throw TasksError(
                code: .invalidArgumentError,
                message:
                    "The vision task is in image or video mode. The delegate must not be set in the task's options.")
        }
        self.mode = mode
        self.delegate = DelegateReference(delegate)
    }

    /// Starts live-stream delivery (live-stream mode only): each processed frame becomes a task
    /// result (`result`), handed to the delegate through `notify` (MediaPipe's arguments: the result
    /// or nil, the timestamp or `Int.min`, the error), then to every async sequence.
    func startLiveStream<Delegate>(
        label: String, delegate _: Delegate.Type,
        process: @escaping @Sendable (MPImage, NormalizedRect) throws -> Output,
        result: @escaping @Sendable (Output, Int) -> Delivered,
        notify: @escaping @Sendable (Delegate, Delivered?, Int, (any Error)?) -> Void
    ) {
        guard mode == .liveStream else { return }
        let live = LiveStreamRunner<(MPImage, NormalizedRect), Output>(
            label: label, process: { try process($0.0, $0.1) }
        ) {
            [delegate, streams] output, timestamp in
            let delivered = output.map { result($0, timestamp) }
            if let target = delegate.delegate(as: Delegate.self) {
                switch delivered {
                case .success(let value): notify(target, value, timestamp, nil)
                case .failure(let error): notify(target, nil, Int.min, error)
                }
            }
            streams.yield(delivered)
        }
        state.withLock { $0.live = live }
    }

    private var live: LiveStreamRunner<(MPImage, NormalizedRect), Output>? { state.withLock { $0.live } }
    var droppedFrameCount: Int { live?.droppedFrameCount ?? 0 }
    func waitUntilIdle() { live?.waitUntilIdle() }

    /// A new async sequence of the delivered results (live-stream mode only).
    func liveStreamResults() throws -> AsyncStream<Result<Delivered, any Error>> {
        try check(.liveStream)
        return streams.makeStream()
    }

    /// Waits until every accepted frame is delivered, then ends the sequences made so far.
    func finishLiveStreamResults() {
        waitUntilIdle()
        streams.finish()
    }

    private func check(_ wanted: RunningMode) throws {
        guard mode == wanted else {
            let name = wanted == .image ? "image" : wanted == .video ? "video" : "live stream"
            throw TasksError(
                code: .invalidArgumentError,
                message: "The vision task is not initialized with \(name) mode. Current Running Mode: \(mode)")
        }
    }

    static func checkOrientation(_ image: MPImage) throws {
        if image.orientation.isMirrored {
            throw TasksError(
                code: .invalidArgumentError,
                message:
                    "Unsupported UIImageOrientation. `imageOrientation` cannot be equal to any of the mirrored "
                    + "orientations "
                    + "(`UIImageOrientationUpMirrored`,`UIImageOrientationDownMirrored`,"
                    + "`UIImageOrientationLeftMirrored`,`UIImageOrientationRightMirrored`)"
            )
        }
    }

    private static func checkTimestamp(_ timestamp: Int, after last: Int?) throws {
        if let last, timestamp <= last {
            throw TasksError(
                code: .invalidArgumentError,
                message: "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        }
    }

    /// Image mode: runs `body` and returns its output with the synthetic timestamp.
    func image(_ image: MPImage, _ body: () throws -> Output) throws -> (Output, Int) {
        try check(.image)
        try Self.checkOrientation(image)
        return try state.withLock { state in
            let output = try body()
            let timestamp = state.imageModeCalls * 1000
            state.imageModeCalls += 1
            return (output, timestamp)
        }
    }

    /// Video mode: checks the timestamp, then runs `body`.
    func video(_ image: MPImage, timestamp: Int, _ body: () throws -> Output) throws -> Output {
        try check(.video)
        try Self.checkOrientation(image)
        return try state.withLock { state in
            try Self.checkTimestamp(timestamp, after: state.lastTimestamp)
            let output = try body()
            state.lastTimestamp = timestamp
            return output
        }
    }

    /// Live-stream mode: checks, then hands the frame to the flow control and returns at once.
    func async(_ image: MPImage, region: NormalizedRect, timestamp: Int) throws {
        try check(.liveStream)
        try Self.checkOrientation(image)
        try state.withLock { state in
            try Self.checkTimestamp(timestamp, after: state.lastTimestamp)
            state.lastTimestamp = timestamp
            state.live?.submit((image, region), timestamp: timestamp)
        }
    }
}
