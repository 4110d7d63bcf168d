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

    /// A detector with default options for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// A detector with `options`.
    public init(options: ObjectDetectorOptions) throws {
        runningMode = options.runningMode
        if options.runningMode == .liveStream {
            throw TasksError(code: .unimplementedError, message: "The live stream running mode is not available yet in this version of VisionTasks.")
        }
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
                resources = try ModelResources(bytes: [UInt8](buffer))
            } else {
                resources = try ModelResources(path: base.modelAssetPath ?? "")
            }
            return try ObjectDetectionEngine(resources: resources, options: detectorOptions, threads: max(1, base.numThreads))
        }
    }

    /// Timings of the last call in seconds: preprocessing, inference, post-processing.
    public var lastTimings: (preprocess: Double, inference: Double, postprocess: Double) { engine.lastTimings }

    private func check(_ mode: RunningMode) throws {
        guard runningMode == mode else {
            throw TasksError(code: .invalidArgumentError,
                             message: "The vision task is not initialized with \(mode == .image ? "image" : mode == .video ? "video" : "live stream") mode. Current Running Mode: \(runningMode)")
        }
    }

    private func run(_ image: MPImage) throws -> [Detection] {
        if image.imageOrientation.isMirrored {
            throw TasksError(code: .invalidArgumentError,
                             message: "Unsupported UIImageOrientation. `imageOrientation` cannot be equal to any of the mirrored orientations (`UIImageOrientationUpMirrored`,`UIImageOrientationDownMirrored`,`UIImageOrientationLeftMirrored`,`UIImageOrientationRightMirrored`)")
        }
        return try TasksError.wrap { try engine.detect(image.bitmap, orientation: image.imageOrientation).map(Detection.init) }
    }

    /// Detects objects in a single picture (image mode).
    public func detect(image: MPImage) throws -> ObjectDetectorResult {
        try check(.image)
        lock.lock()
        defer { lock.unlock() }
        let detections = try run(image)
        let timestamp = imageModeCalls * 1000
        imageModeCalls += 1
        return ObjectDetectorResult(detections: detections, timestampInMilliseconds: timestamp)
    }

    /// Detects objects in a video frame (video mode). Timestamps must increase strictly.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> ObjectDetectorResult {
        try check(.video)
        lock.lock()
        defer { lock.unlock() }
        if let last = lastTimestamp, timestampInMilliseconds <= last {
            throw TasksError(code: .invalidArgumentError, message: "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        }
        let detections = try run(image)
        lastTimestamp = timestampInMilliseconds
        return ObjectDetectorResult(detections: detections, timestampInMilliseconds: timestampInMilliseconds)
    }
}
