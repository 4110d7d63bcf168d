import Foundation
import Imaging
import MediaPipeTasksVision
import Video
import VisionCore

/// `classify`: MediaPipe's ImageClassifier (optionally on a region) — image mode for pictures,
/// video mode for video frames, live-stream mode for `--live`.
package final class ClassifyTask: BatchTask {
    package let name = "classify"
    private let options: ImageClassifierOptions
    private let roi: CGRect
    private let imageClassifier: ImageClassifier
    package let isStateful = false
    private var videoClassifier = PerVideo<ImageClassifier>()

    package let jpegDecoding: JPEGDecoding

    package init(_ config: MediaPipeTaskConfig) throws {
        options = ImageClassifierOptions()
        config.apply(to: options, defaultMaxResults: 5)
        roi = config.regionOfInterest
        imageClassifier = try ImageClassifier(options: options)
        let size = imageClassifier.modelInputSize
        jpegDecoding =
            config.fastDecode ? .reduced(width: size.width, height: size.height) : config.jpegDecoding ?? .mediaPipe
    }

    package func picture(_ picture: Picture) throws -> TaskRecord {
        let result = try imageClassifier.classify(
            image: picture.image, regionOfInterest: roi)
        return Self.record(result, StageTimings(imageClassifier.lastTimings))
    }

    package func frame(_ frame: VideoFrame, video: Int) throws -> TaskRecord {
        let classifier = try videoClassifier.get(video) {
            try ImageClassifier(options: try TaskOptions.copy(options, mode: .video))
        }
        let result = try classifier.classify(
            videoFrame: MPImage(bitmap: frame.bitmap, orientation: .up),
            timestampInMilliseconds: frame.timestampMs, regionOfInterest: roi)
        return Self.record(result, StageTimings(classifier.lastTimings))
    }

    package static func record(_ r: ImageClassifierResult, _ t: StageTimings?) -> TaskRecord {
        var record = TaskRecord(fields: [("classifications", ResultFields.classifications(r))], text: r.description)
        if let top = r.classificationResult.classifications.first?.categories.first {
            record.caption = ResultFields.caption(top)
            record.classes = [top.displayName ?? top.categoryName ?? "#\(top.index)"]
        }
        record.stages = t
        return record
    }

    package func liveSession(deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) throws -> LiveSession? {
        let relay = Relay(deliver)
        let o = try TaskOptions.copy(options, mode: .liveStream)
        o.imageClassifierLiveStreamDelegate = relay
        let classifier = try ImageClassifier(options: o)
        let roi = roi
        return APILiveSession(
            owner: classifier, delegate: relay,
            submit: { frame in
                try classifier.classifyAsync(
                    image: MPImage(bitmap: frame.bitmap, orientation: .up), timestampInMilliseconds: frame.timestampMs,
                    regionOfInterest: roi)
            }, waitUntilIdle: { classifier.waitUntilIdle() }, dropped: { classifier.droppedFrameCount })
    }

    /// Forwards the classifier's live results.
    private final class Relay: NSObject, ImageClassifierLiveStreamDelegate {
        let deliver: (Int, Result<TaskRecord, ItemFailure>) -> Void
        init(_ deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) { self.deliver = deliver }
        func imageClassifier(
            _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
            timestampInMilliseconds: Int, error: Error?
        ) {
            deliver(timestampInMilliseconds, APILiveSession.outcome(result, error) { ClassifyTask.record($0, nil) })
        }
    }
}
