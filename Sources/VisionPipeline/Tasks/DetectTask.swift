import Foundation
import Imaging
import MediaPipeTasksVision
import Video
import VisionCore

/// `detect`: MediaPipe's ObjectDetector — image mode for pictures, video mode for video frames
/// (one detector per video: timestamps start again), live-stream mode for `--live`.
package final class DetectTask: BatchTask {
    package let name = "detect"
    private let options: ObjectDetectorOptions
    private let imageDetector: ObjectDetector
    package let isStateful = false
    private var videoDetector = PerVideo<ObjectDetector>()

    package init(_ config: MediaPipeTaskConfig) throws {
        options = ObjectDetectorOptions()
        config.apply(to: options, defaultMaxResults: -1)
        options.yolo = config.yolo
        imageDetector = try ObjectDetector(options: options)
        let size = imageDetector.modelInputSize
        jpegDecoding =
            config.fastDecode
            ? .reduced(width: size.width, height: size.height)
            : config.jpegDecoding ?? imageDetector.preferredJPEGDecoding
    }

    package let jpegDecoding: JPEGDecoding

    package func picture(_ picture: Picture) throws -> TaskRecord {
        Self.record(try detections(picture), StageTimings(imageDetector.lastTimings))
    }

    /// The detector's result for a picture (image mode).
    package func detections(_ picture: Picture) throws -> ObjectDetectorResult {
        try imageDetector.detect(image: picture.image)
    }

    /// The detector's result for a tensor of the model's exact input shape and type (no decoding).
    package func detections(inputTensor bytes: [UInt8]) throws -> ObjectDetectorResult {
        try imageDetector.detect(inputTensor: bytes)
    }

    /// The model's input tensor (shape and element type).
    package var inputTensor: (shape: [Int], type: String)? { imageDetector.inputTensor }

    /// Inference seconds of the last call.
    package var lastInferenceSeconds: Double { imageDetector.lastTimings.inference }

    package func frame(_ frame: VideoFrame, video: Int) throws -> TaskRecord {
        let detector = try videoDetector.get(video) {
            try ObjectDetector(options: try TaskOptions.copy(options, mode: .video))
        }
        let result = try detector.detect(
            videoFrame: MPImage(bitmap: frame.bitmap, orientation: .up), timestampInMilliseconds: frame.timestampMs)
        return Self.record(result, StageTimings(detector.lastTimings))
    }

    package static func record(_ r: ObjectDetectorResult, _ t: StageTimings?) -> TaskRecord {
        var record = TaskRecord(fields: [("detections", ResultFields.detections(r))], text: r.description)
        for d in r.detections {
            let top = d.categories.first
            let b = d.boundingBox
            record.marks.append(
                .init(
                    x: Int(b.origin.x), y: Int(b.origin.y), width: Int(b.size.width), height: Int(b.size.height),
                    label: top.map(ResultFields.caption) ?? "", color: top?.index ?? 0))
            record.classes.append(top.map { $0.displayName ?? $0.categoryName ?? "#\($0.index)" } ?? "?")
        }
        record.stages = t
        return record
    }

    package func liveSession(deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) throws -> LiveSession? {
        let relay = Relay(deliver)
        let o = try TaskOptions.copy(options, mode: .liveStream)
        o.objectDetectorLiveStreamDelegate = relay
        let detector = try ObjectDetector(options: o)
        return APILiveSession(
            owner: detector, delegate: relay,
            submit: { frame in
                try detector.detectAsync(
                    image: MPImage(bitmap: frame.bitmap, orientation: .up), timestampInMilliseconds: frame.timestampMs)
            }, waitUntilIdle: { detector.waitUntilIdle() }, dropped: { detector.droppedFrameCount })
    }

    /// Forwards the detector's live results.
    private final class Relay: NSObject, ObjectDetectorLiveStreamDelegate {
        let deliver: (Int, Result<TaskRecord, ItemFailure>) -> Void
        init(_ deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) { self.deliver = deliver }
        func objectDetector(
            _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
            timestampInMilliseconds: Int, error: Error?
        ) {
            deliver(timestampInMilliseconds, APILiveSession.outcome(result, error) { DetectTask.record($0, nil) })
        }
    }
}
