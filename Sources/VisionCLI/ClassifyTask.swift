import Foundation
import Imaging
import MediaPipeTasksVision
import Video

/// `classify`: MediaPipe's ImageClassifier (optionally on a region) — image mode for pictures,
/// video mode for video frames, live-stream mode for `--live`.
final class ClassifyTask: BatchTask {
    let name = "classify"
    private let options: ImageClassifierOptions
    private let roi: CGRect
    private let imageClassifier: ImageClassifier
    private var currentVideo = -1
    let isStateful = false
    private var videoClassifier: ImageClassifier?

    init(_ p: ParsedCommand) throws {
        options = ImageClassifierOptions()
        try TaskOptions.apply(p, to: options, defaultMaxResults: 5)
        roi = try TaskOptions.roi(p)
        imageClassifier = try ImageClassifier(options: options)
    }

    private func options(_ mode: RunningMode) throws -> ImageClassifierOptions {
        guard let o = options.copy() as? ImageClassifierOptions else { throw CLIError.failure("cannot copy the classifier options") }
        o.runningMode = mode
        return o
    }

    func picture(_ picture: Picture) throws -> TaskRecord {
        let result = try imageClassifier.classify(image: MPImage(bitmap: picture.bitmap, orientation: picture.orientation), regionOfInterest: roi)
        return Self.record(result, imageClassifier.lastTimings)
    }

    func frame(_ frame: VideoFrame, video: Int) throws -> TaskRecord {
        if video != currentVideo || videoClassifier == nil {
            currentVideo = video
            videoClassifier = try ImageClassifier(options: try options(.video)) }
        guard let classifier = videoClassifier else { throw CLIError.failure("no video classifier") }
        let result = try classifier.classify(videoFrame: MPImage(bitmap: frame.bitmap, orientation: .up),
                                             timestampInMilliseconds: frame.timestampMs, regionOfInterest: roi)
        return Self.record(result, classifier.lastTimings)
    }

    static func record(_ r: ImageClassifierResult, _ t: (preprocess: Double, inference: Double, postprocess: Double)?) -> TaskRecord {
        var record = TaskRecord(fields: [("classifications", ResultFields.classifications(r))], text: r.description)
        if let top = r.classificationResult.classifications.first?.categories.first {
            record.caption = ResultFields.caption(top)
            record.classes = [top.displayName ?? top.categoryName ?? "#\(top.index)"]
        }
        record.stages = t
        return record
    }

    func liveSession(deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) throws -> LiveSession? {
        let relay = Relay(deliver)
        let o = try options(.liveStream)
        o.imageClassifierLiveStreamDelegate = relay
        return Session(classifier: try ImageClassifier(options: o), relay: relay, roi: roi)
    }

    /// Forwards the classifier's live results.
    private final class Relay: NSObject, ImageClassifierLiveStreamDelegate, @unchecked Sendable {
        let deliver: (Int, Result<TaskRecord, ItemFailure>) -> Void
        init(_ deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) { self.deliver = deliver }
        func imageClassifier(_ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?, timestampInMilliseconds: Int, error: Error?) {
            if let result { deliver(timestampInMilliseconds, .success(ClassifyTask.record(result, nil))) }
            else { deliver(timestampInMilliseconds, .failure(ItemFailure(error ?? CLIError.failure("no result")))) }
        }
    }

    private final class Session: LiveSession {
        let classifier: ImageClassifier
        let relay: Relay
        let roi: CGRect
        init(classifier: ImageClassifier, relay: Relay, roi: CGRect) { self.classifier = classifier; self.relay = relay; self.roi = roi }
        func submit(_ frame: VideoFrame) throws {
            try classifier.classifyAsync(image: MPImage(bitmap: frame.bitmap, orientation: .up), timestampInMilliseconds: frame.timestampMs, regionOfInterest: roi)
        }
        func finish() { classifier.waitUntilIdle() }
        var dropped: Int { classifier.droppedFrameCount }
    }
}
