import Foundation
import Imaging
import VisionCore

/// Finds objects in pictures with a `.tflite` detector, as MediaPipe's `ObjectDetector`.
public final class ObjectDetector: @unchecked Sendable {
    private let engine: ObjectDetectionEngine
    private let runningMode: RunningMode
    private let lock = NSLock()
    private var imageModeCalls = 0
    private var lastTimestamp: Int?
    private weak var liveStreamDelegate: (any ObjectDetectorLiveStreamDelegate)?
    private var liveStream: LiveStreamRunner<MPImage, ObjectDetectorResult>?

    /// A detector with default options for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// A detector with `options`. Checks, in MediaPipe's order: running mode and delegate, delegate
    /// kind, model file, options, metadata, input tensor, outputs.
    public init(options: ObjectDetectorOptions) throws {
        runningMode = options.runningMode
        let delegate = options.objectDetectorLiveStreamDelegate
        try Self.checkDelegate(mode: options.runningMode, hasDelegate: delegate != nil)
        guard options.baseOptions.delegate == .CPU else {
            throw TasksError(code: .unimplementedError,
                             message: "The GPU delegate is not available on Linux. Use Delegate.CPU (the default).")
        }
        let base = options.baseOptions
        let detectorOptions = DetectorOptions(displayNamesLocale: options.displayNamesLocale ?? "en", maxResults: options.maxResults,
                                              scoreThreshold: options.scoreThreshold,
                                              categoryAllowlist: options.categoryAllowlist, categoryDenylist: options.categoryDenylist)
        engine = try TasksError.wrap {
            let resources: ModelResources
            if let buffer = base.modelAssetBuffer, (base.modelAssetPath ?? "").isEmpty {
                resources = try ModelResources(bytes: [UInt8](buffer), optimizeHybridModels: base.optimizeHybridModels)
            } else {
                resources = try ModelResources(path: base.modelAssetPath ?? "", optimizeHybridModels: base.optimizeHybridModels)
            }
            return try ObjectDetectionEngine(resources: resources, options: detectorOptions, threads: max(1, base.numThreads))
        }
        if runningMode == .liveStream {
            liveStreamDelegate = delegate
            liveStream = LiveStreamRunner(label: "objectDetector", process: { [engine] image in
                ObjectDetectorResult(detections: try Self.detections(engine, image), timestampInMilliseconds: 0)
            }, deliver: { [weak self] result, timestamp in
                guard let self, let delegate = self.liveStreamDelegate else { return }
                switch result {
                case .success(let r):
                    delegate.objectDetector(self, didFinishDetection: ObjectDetectorResult(detections: r.detections, timestampInMilliseconds: timestamp),
                                            timestampInMilliseconds: timestamp, error: nil)
                case .failure(let e):
                    delegate.objectDetector(self, didFinishDetection: nil, timestampInMilliseconds: Int.min, error: e)
                }
            })
        }
    }

    /// MediaPipe's delegate rules, checked before the model is loaded.
    static func checkDelegate(mode: RunningMode, hasDelegate: Bool) throws {
        if mode == .liveStream && !hasDelegate {
            throw TasksError(code: .invalidArgumentError,
                             message: "The vision task is in live stream mode. An object must be set as the delegate of the task in its options to ensure asynchronous delivery of results.")
        }
        if mode != .liveStream && hasDelegate {
            throw TasksError(code: .invalidArgumentError,
                             message: "The vision task is in image or video mode. The delegate must not be set in the task's options.")
        }
    }

    /// Timings of the last call in seconds: preprocessing, inference, post-processing.
    public var lastTimings: (preprocess: Double, inference: Double, postprocess: Double) { engine.lastTimings }

    /// Live stream: frames dropped so far by the flow control (an extension).
    public var droppedFrameCount: Int { liveStream?.droppedFrameCount ?? 0 }

    /// Live stream: waits until every accepted frame has been processed and delivered (an extension).
    public func waitUntilIdle() { liveStream?.waitUntilIdle() }

    private func check(_ mode: RunningMode) throws {
        guard runningMode == mode else {
            let name = mode == .image ? "image" : mode == .video ? "video" : "live stream"
            throw TasksError(code: .invalidArgumentError,
                             message: "The vision task is not initialized with \(name) mode. Current Running Mode: \(runningMode)")
        }
    }

    static func checkOrientation(_ image: MPImage) throws {
        if image.orientation.isMirrored {
            throw TasksError(code: .invalidArgumentError,
                             message: "Unsupported UIImageOrientation. `imageOrientation` cannot be equal to any of the mirrored orientations (`UIImageOrientationUpMirrored`,`UIImageOrientationDownMirrored`,`UIImageOrientationLeftMirrored`,`UIImageOrientationRightMirrored`)")
        }
    }

    static func detections(_ engine: ObjectDetectionEngine, _ image: MPImage) throws -> [Detection] {
        try checkOrientation(image)
        return try TasksError.wrap { try engine.detect(image.bitmap, orientation: image.orientation).map(Detection.init) }
    }

    private func checkTimestamp(_ timestamp: Int) throws {
        if let last = lastTimestamp, timestamp <= last {
            throw TasksError(code: .invalidArgumentError, message: "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        }
    }

    /// Detects objects in a single picture (image mode).
    public func detect(image: MPImage) throws -> ObjectDetectorResult {
        try check(.image)
        lock.lock()
        defer { lock.unlock() }
        let detections = try Self.detections(engine, image)
        let timestamp = imageModeCalls * 1000
        imageModeCalls += 1
        return ObjectDetectorResult(detections: detections, timestampInMilliseconds: timestamp)
    }

    /// Detects objects in a video frame (video mode). Timestamps must increase strictly.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> ObjectDetectorResult {
        try check(.video)
        lock.lock()
        defer { lock.unlock() }
        try checkTimestamp(timestampInMilliseconds)
        let detections = try Self.detections(engine, image)
        lastTimestamp = timestampInMilliseconds
        return ObjectDetectorResult(detections: detections, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Hands a live frame over and returns at once (live-stream mode). The result goes to the
    /// delegate; while a frame is being processed, one newer frame waits and older waiting frames
    /// are dropped without a call. Timestamps must increase strictly.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try check(.liveStream)
        try Self.checkOrientation(image)
        lock.lock()
        defer { lock.unlock() }
        try checkTimestamp(timestampInMilliseconds)
        lastTimestamp = timestampInMilliseconds
        liveStream?.submit(image, timestamp: timestampInMilliseconds)
    }
}
