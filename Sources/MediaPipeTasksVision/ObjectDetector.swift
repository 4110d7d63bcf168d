import Foundation
import Imaging
import VisionCore

/// Finds objects in pictures with a `.tflite` detector, as MediaPipe's `ObjectDetector`.
public final class ObjectDetector: NSObject, Sendable {
    private let engine: ObjectDetectionEngine
    /// The model's input size (width, height), for fast decoding.
    package var modelInputSize: (width: Int, height: Int) {
        (engine.inference.spec.width, engine.inference.spec.height)
    }
    /// The class names the model gives detections, in class order (empty when it names none).
    package var labelNames: [String] { engine.head.labelNames }
    /// The JPEG pixels the model's reference sees (its head says): MediaPipe's decoder, or OpenCV's for
    /// YOLO models (Ultralytics' `predict` reads pictures with `cv2.imread`).
    package var preferredJPEGDecoding: JPEGDecoding { JPEGDecoding(engine.head.preferredJPEG) }
    /// Whether the model is decoded as a YOLO detector (an extension).
    public var isYOLO: Bool {
        if case .yolo = engine.head { return true }
        return false
    }
    private let runner: VisionTaskRunner<[Detection], ObjectDetectorResult>

    /// A detector with default options for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// A detector with `options`. Checks, in MediaPipe's order: running mode and delegate, delegate
    /// kind, model file, options, metadata, input tensor, outputs.
    public init(options: ObjectDetectorOptions) throws {
        let delegate = options.objectDetectorLiveStreamDelegate
        runner = try VisionTaskRunner(
            mode: options.runningMode, delegate: delegate, asyncResults: options.deliversLiveStreamResultsAsynchronously
        )
        try options.validate()
        let detectorOptions = options.resultOptions
        let base = options.baseOptions
        let yolo = options.yolo.decoding
        engine = try TasksError.wrap {
            try ObjectDetectionEngine(
                resources: try base.modelResources(), options: detectorOptions, threads: base.numThreads, yolo: yolo)
        }
        super.init()
        runner.startLiveStream(
            label: "objectDetector", delegate: (any ObjectDetectorLiveStreamDelegate).self,
            process: { [engine] image, _ in
                try Self.detections(engine, image)
            }, result: { ObjectDetectorResult(detections: $0, timestampInMilliseconds: $1) },
            notify: { [weak self] delegate, result, timestamp, error in
                guard let self else { return }
                delegate.objectDetector(
                    self, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            })
    }

    /// Timings of the last call in seconds: preprocessing, inference, post-processing.
    public var lastTimings: (preprocess: Double, inference: Double, postprocess: Double) { engine.lastTimings.tuple }

    /// Live stream: frames dropped so far by the flow control (an extension).
    public var droppedFrameCount: Int { runner.droppedFrameCount }

    /// Live stream: waits until every accepted frame has been processed and delivered (an extension).
    public func waitUntilIdle() { runner.waitUntilIdle() }

    /// Live stream: the results of ``detectAsync(image:timestampInMilliseconds:)`` as an async sequence (a Linux
    /// extension, beside the
    /// delegate; with ``VisionTaskOptions/deliversLiveStreamResultsAsynchronously`` no delegate is
    /// needed). Each processed frame's result — or the error processing it raised — arrives in
    /// timestamp order, from the frames delivered after the sequence was made; nothing is dropped
    /// after MediaPipe's own flow control. The sequence ends with ``finishLiveStreamResults()`` or
    /// when the task is released. Throws MediaPipe's wrong-mode error outside live-stream mode.
    public func liveStreamResults() throws -> AsyncStream<Result<ObjectDetectorResult, any Error>> {
        try runner.liveStreamResults()
    }

    /// Live stream: waits until every accepted frame has been delivered, then ends every sequence
    /// made by ``liveStreamResults()`` so far (an extension). Frames can still be sent afterwards, to
    /// sequences made later.
    public func finishLiveStreamResults() { runner.finishLiveStreamResults() }

    static func detections(_ engine: ObjectDetectionEngine, _ image: MPImage) throws -> [Detection] {
        try image.checkTaskFormat()
        return try TasksError.wrap {
            try engine.detect(image.bitmap, orientation: image.orientation.imaging, size: image.fileSize).map(
                Detection.init)
        }
    }

    /// The model's input tensor: shape (e.g. `[1, 300, 300, 3]`) and element type name (`UINT8`,
    /// `FLOAT32`…), for callers that hand tensors over (``detect(inputTensor:)``).
    package var inputTensor: (shape: [Int], type: String)? {
        engine.inference.input.map { ($0.shape, $0.elementType.description) }
    }

    /// Detects objects in a tensor of the model's exact input shape and type, given as its bytes
    /// (no decoding or resizing: a network client such as Frigate sends model-sized tensors); boxes
    /// are in the input's pixels. Runs in any running mode, outside its timestamp rules.
    package func detect(inputTensor bytes: [UInt8]) throws -> ObjectDetectorResult {
        let detections = try TasksError.wrap { try engine.detect(tensor: bytes).map(Detection.init) }
        return ObjectDetectorResult(detections: detections, timestampInMilliseconds: 0)
    }

    /// Detects objects in a single picture (image mode).
    public func detect(image: MPImage) throws -> ObjectDetectorResult {
        let (detections, timestamp) = try runner.image(image) { try Self.detections(engine, image) }
        return ObjectDetectorResult(detections: detections, timestampInMilliseconds: timestamp)
    }

    /// Detects objects in a video frame (video mode). Timestamps must increase strictly.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> ObjectDetectorResult {
        let detections = try runner.video(image, timestamp: timestampInMilliseconds) {
            try Self.detections(engine, image)
        }
        return ObjectDetectorResult(detections: detections, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Hands a live frame over and returns at once (live-stream mode). The result goes to the
    /// delegate; while a frame is being processed, one newer frame waits and older waiting frames
    /// are dropped without a call. Timestamps must increase strictly.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try runner.async(image, region: .full, timestamp: timestampInMilliseconds)
    }
}
