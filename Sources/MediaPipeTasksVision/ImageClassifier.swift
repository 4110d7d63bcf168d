import Foundation
import Imaging
import VisionCore

/// Classifies pictures (or a region of them) with a `.tflite` classifier, as MediaPipe's `ImageClassifier`.
public final class ImageClassifier: NSObject, Sendable {
    private let engine: ImageClassificationEngine
    /// The model's input size (width, height), for fast decoding.
    package var modelInputSize: (width: Int, height: Int) {
        (engine.inference.spec.width, engine.inference.spec.height)
    }
    private let runner: VisionTaskRunner<[Classifications], ImageClassifierResult>

    /// A classifier with default options for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// A classifier with `options`. Checks, in MediaPipe's order: running mode and delegate, model
    /// file, input tensor, options, outputs and their metadata.
    public init(options: ImageClassifierOptions) throws {
        let delegate = options.imageClassifierLiveStreamDelegate
        runner = try VisionTaskRunner(
            mode: options.runningMode, delegate: delegate, asyncResults: options.deliversLiveStreamResultsAsynchronously
        )
        try options.validate()
        let classifierOptions = options.resultOptions
        let base = options.baseOptions
        engine = try TasksError.wrap {
            try ImageClassificationEngine(
                resources: try base.modelResources(), options: classifierOptions, threads: base.numThreads)
        }
        super.init()
        runner.startLiveStream(
            label: "imageClassifier", delegate: (any ImageClassifierLiveStreamDelegate).self,
            process: { [engine] image, region in
                try Self.classifications(engine, image, region)
            }, result: { Self.result($0, $1) },
            notify: { [weak self] delegate, result, timestamp, error in
                guard let self else { return }
                delegate.imageClassifier(
                    self, didFinishClassification: result, timestampInMilliseconds: timestamp, error: error)
            })
    }

    /// Timings of the last call in seconds: preprocessing, inference, post-processing.
    public var lastTimings: (preprocess: Double, inference: Double, postprocess: Double) { engine.lastTimings.tuple }

    /// Live stream: frames dropped so far by the flow control (an extension).
    public var droppedFrameCount: Int { runner.droppedFrameCount }

    /// Live stream: waits until every accepted frame has been processed and delivered (an extension).
    public func waitUntilIdle() { runner.waitUntilIdle() }

    /// Live stream: the results of ``classifyAsync(image:timestampInMilliseconds:)`` as an async sequence (a Linux
    /// extension, beside the
    /// delegate; with ``VisionTaskOptions/deliversLiveStreamResultsAsynchronously`` no delegate is
    /// needed). Each processed frame's result — or the error processing it raised — arrives in
    /// timestamp order, from the frames delivered after the sequence was made; nothing is dropped
    /// after MediaPipe's own flow control. The sequence ends with ``finishLiveStreamResults()`` or
    /// when the task is released. Throws MediaPipe's wrong-mode error outside live-stream mode.
    public func liveStreamResults() throws -> AsyncStream<Result<ImageClassifierResult, any Error>> {
        try runner.liveStreamResults()
    }

    /// Live stream: waits until every accepted frame has been delivered, then ends every sequence
    /// made by ``liveStreamResults()`` so far (an extension). Frames can still be sent afterwards, to
    /// sequences made later.
    public func finishLiveStreamResults() { runner.finishLiveStreamResults() }

    /// A normalized `CGRect` (`.zero` = the whole picture) as the core's region, checked as
    /// MediaPipe checks a region of interest (its messages, code 3).
    static func region(_ roi: CGRect) throws -> NormalizedRect {
        if roi == .zero { return .full }
        let left = Float(roi.origin.x), top = Float(roi.origin.y)
        let right = Float(roi.origin.x + roi.size.width), bottom = Float(roi.origin.y + roi.size.height)
        if left >= right || top >= bottom {
            throw TasksError(code: .invalidArgumentError, message: "Expected RectF with left < right and top < bottom.")
        }
        if left < 0 || top < 0 || right > 1 || bottom > 1 {
            throw TasksError(code: .invalidArgumentError, message: "Expected RectF values to be in [0,1].")
        }
        if [left, top, right, bottom].contains(where: \.isNaN) {
            throw TasksError(code: .invalidArgumentError, message: "ROI contains NaN values.")
        }
        return NormalizedRect(
            x: Double(roi.origin.x), y: Double(roi.origin.y), width: Double(roi.size.width),
            height: Double(roi.size.height))
    }

    static func classifications(
        _ engine: ImageClassificationEngine, _ image: MPImage, _ region: NormalizedRect
    ) throws -> [Classifications] {
        try image.checkTaskFormat()
        return try TasksError.wrap {
            try engine.classify(image.bitmap, orientation: image.orientation.imaging, region: region).map(
                Classifications.init)
        }
    }

    /// The task result for `heads` at `timestamp`: MediaPipe puts the input's timestamp in both the
    /// task result and its classification result (image mode: its synthetic 0, 1000, 2000, …).
    static func result(_ heads: [Classifications], _ timestamp: Int) -> ImageClassifierResult {
        ImageClassifierResult(
            classificationResult: ClassificationResult(classifications: heads, timestampInMilliseconds: timestamp),
            timestampInMilliseconds: timestamp)
    }

    /// Classifies a single picture (image mode).
    public func classify(image: MPImage) throws -> ImageClassifierResult {
        try classify(image: image, regionOfInterest: .zero)
    }

    /// Classifies `regionOfInterest` (normalized, in the unrotated picture) of a single picture (image mode).
    public func classify(image: MPImage, regionOfInterest: CGRect) throws -> ImageClassifierResult {
        let (heads, timestamp) = try runner.image(image) {
            try Self.classifications(engine, image, try Self.region(regionOfInterest))
        }
        return Self.result(heads, timestamp)
    }

    /// Classifies a video frame (video mode). Timestamps must increase strictly.
    public func classify(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> ImageClassifierResult {
        try classify(videoFrame: image, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: .zero)
    }

    /// Classifies a region of a video frame (video mode).
    public func classify(
        videoFrame image: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect
    ) throws -> ImageClassifierResult {
        let heads = try runner.video(image, timestamp: timestampInMilliseconds) {
            try Self.classifications(engine, image, try Self.region(regionOfInterest))
        }
        return Self.result(heads, timestampInMilliseconds)
    }

    /// Hands a live frame over and returns at once (live-stream mode); the result goes to the delegate.
    public func classifyAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try classifyAsync(image: image, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: .zero)
    }

    /// Hands a region of a live frame over and returns at once (live-stream mode).
    public func classifyAsync(image: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect) throws {
        try runner.async(image, region: try Self.region(regionOfInterest), timestamp: timestampInMilliseconds)
    }
}
