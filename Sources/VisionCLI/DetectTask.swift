import Foundation
import Imaging
import MediaPipeTasksVision
import Video

/// `detect`: MediaPipe's ObjectDetector — image mode for pictures, video mode for video frames
/// (one detector per video: timestamps start again), live-stream mode for `--live`.
final class DetectTask: BatchTask {
    let name = "detect"
    private let options: ObjectDetectorOptions
    private let imageDetector: ObjectDetector
    private var currentVideo = -1
    let isStateful = false
    private var videoDetector: ObjectDetector?

    init(_ p: ParsedCommand) throws {
        options = ObjectDetectorOptions()
        try TaskOptions.apply(p, to: options, defaultMaxResults: -1)
        imageDetector = try ObjectDetector(options: options)
    }

    private func options(_ mode: RunningMode) throws -> ObjectDetectorOptions {
        guard let o = options.copy() as? ObjectDetectorOptions else { throw CLIError.failure("cannot copy the detector options") }
        o.runningMode = mode
        return o
    }

    func picture(_ picture: Picture) throws -> TaskRecord {
        let result = try imageDetector.detect(image: MPImage(bitmap: picture.bitmap, orientation: picture.orientation))
        return Self.record(result, imageDetector.lastTimings)
    }

    func frame(_ frame: VideoFrame, video: Int) throws -> TaskRecord {
        if video != currentVideo || videoDetector == nil {
            currentVideo = video
            videoDetector = try ObjectDetector(options: try options(.video)) }
        guard let detector = videoDetector else { throw CLIError.failure("no video detector") }
        let result = try detector.detect(videoFrame: MPImage(bitmap: frame.bitmap, orientation: .up), timestampInMilliseconds: frame.timestampMs)
        return Self.record(result, detector.lastTimings)
    }

    static func record(_ r: ObjectDetectorResult, _ t: (preprocess: Double, inference: Double, postprocess: Double)?) -> TaskRecord {
        var record = TaskRecord(fields: [("detections", ResultFields.detections(r))], text: r.description)
        for d in r.detections {
            let top = d.categories.first
            let b = d.boundingBox
            record.marks.append(.init(x: Int(b.origin.x), y: Int(b.origin.y), width: Int(b.size.width), height: Int(b.size.height),
                                      label: top.map(ResultFields.caption) ?? "", color: top?.index ?? 0))
            record.classes.append(top.map { $0.displayName ?? $0.categoryName ?? "#\($0.index)" } ?? "?")
        }
        record.stages = t
        return record
    }

    func liveSession(deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) throws -> LiveSession? {
        let relay = Relay(deliver)
        let o = try options(.liveStream)
        o.objectDetectorLiveStreamDelegate = relay
        return Session(detector: try ObjectDetector(options: o), relay: relay)
    }

    /// Forwards the detector's live results.
    private final class Relay: NSObject, ObjectDetectorLiveStreamDelegate, @unchecked Sendable {
        let deliver: (Int, Result<TaskRecord, ItemFailure>) -> Void
        init(_ deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) { self.deliver = deliver }
        func objectDetector(_ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?, timestampInMilliseconds: Int, error: Error?) {
            if let result { deliver(timestampInMilliseconds, .success(DetectTask.record(result, nil))) }
            else { deliver(timestampInMilliseconds, .failure(ItemFailure(error ?? CLIError.failure("no result")))) }
        }
    }

    private final class Session: LiveSession {
        let detector: ObjectDetector
        let relay: Relay
        init(detector: ObjectDetector, relay: Relay) { self.detector = detector; self.relay = relay }
        func submit(_ frame: VideoFrame) throws { try detector.detectAsync(image: MPImage(bitmap: frame.bitmap, orientation: .up), timestampInMilliseconds: frame.timestampMs) }
        func finish() { detector.waitUntilIdle() }
        var dropped: Int { detector.droppedFrameCount }
    }
}
