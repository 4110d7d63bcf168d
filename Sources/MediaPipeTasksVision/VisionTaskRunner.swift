import Foundation
import Imaging
import VisionCore

/// The running-mode rules every MediaPipe vision task shares: delegate rules at creation,
/// wrong-mode errors, image-mode timestamps (0, 1000, …), strictly increasing video and live
/// timestamps, mirrored orientations refused, and live-stream delivery through MediaPipe's flow
/// control (``LiveStreamRunner``).
final class VisionTaskRunner<Output: Sendable>: @unchecked Sendable {
    let mode: RunningMode
    private let lock = NSLock()
    private var imageModeCalls = 0
    private var lastTimestamp: Int?
    private var live: LiveStreamRunner<(MPImage, NormalizedRect), Output>?

    /// Checks MediaPipe's delegate rules (before any model is loaded).
    init(mode: RunningMode, hasDelegate: Bool) throws {
        if mode == .liveStream && !hasDelegate {
            throw TasksError(code: .invalidArgumentError,
                             message: "The vision task is in live stream mode. An object must be set as the delegate of the task in its options to ensure asynchronous delivery of results.")
        }
        if mode != .liveStream && hasDelegate {
            throw TasksError(code: .invalidArgumentError,
                             message: "The vision task is in image or video mode. The delegate must not be set in the task's options.")
        }
        self.mode = mode
    }

    /// Starts live-stream delivery (live-stream mode only).
    func startLiveStream(label: String, process: @escaping @Sendable (MPImage, NormalizedRect) throws -> Output,
                         deliver: @escaping @Sendable (Result<Output, Error>, Int) -> Void) {
        guard mode == .liveStream else { return }
        live = LiveStreamRunner(label: label, process: { try process($0.0, $0.1) }, deliver: deliver)
    }

    var droppedFrameCount: Int { live?.droppedFrameCount ?? 0 }
    func waitUntilIdle() { live?.waitUntilIdle() }

    private func check(_ wanted: RunningMode) throws {
        guard mode == wanted else {
            let name = wanted == .image ? "image" : wanted == .video ? "video" : "live stream"
            throw TasksError(code: .invalidArgumentError,
                             message: "The vision task is not initialized with \(name) mode. Current Running Mode: \(mode)")
        }
    }

    static func checkOrientation(_ image: MPImage) throws {
        if image.orientation.isMirrored {
            throw TasksError(code: .invalidArgumentError,
                             message: "Unsupported UIImageOrientation. `imageOrientation` cannot be equal to any of the mirrored orientations (`UIImageOrientationUpMirrored`,`UIImageOrientationDownMirrored`,`UIImageOrientationLeftMirrored`,`UIImageOrientationRightMirrored`)")
        }
    }

    private func checkTimestamp(_ timestamp: Int) throws {
        if let last = lastTimestamp, timestamp <= last {
            throw TasksError(code: .invalidArgumentError, message: "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        }
    }

    /// Image mode: runs `body` and returns its output with the synthetic timestamp.
    func image(_ image: MPImage, _ body: () throws -> Output) throws -> (Output, Int) {
        try check(.image)
        try Self.checkOrientation(image)
        lock.lock()
        defer { lock.unlock() }
        let output = try body()
        let timestamp = imageModeCalls * 1000
        imageModeCalls += 1
        return (output, timestamp)
    }

    /// Video mode: checks the timestamp, then runs `body`.
    func video(_ image: MPImage, timestamp: Int, _ body: () throws -> Output) throws -> Output {
        try check(.video)
        try Self.checkOrientation(image)
        lock.lock()
        defer { lock.unlock() }
        try checkTimestamp(timestamp)
        let output = try body()
        lastTimestamp = timestamp
        return output
    }

    /// Live-stream mode: checks, then hands the frame to the flow control and returns at once.
    func async(_ image: MPImage, region: NormalizedRect, timestamp: Int) throws {
        try check(.liveStream)
        try Self.checkOrientation(image)
        lock.lock()
        defer { lock.unlock() }
        try checkTimestamp(timestamp)
        lastTimestamp = timestamp
        live?.submit((image, region), timestamp: timestamp)
    }
}
