import Foundation
import Imaging
import MLKit
import Video
import VisionCore

/// `vision-tasks track`: ML Kit's stream-mode object detection and tracking on a video file, with
/// optional classification by a custom classifier; one JSON line per decoded frame.
enum TrackCommand {
    static let usage = "track VIDEO [--model CLASSIFIER.tflite] [--jsonl OUT.jsonl] [--detections-jsonl DETS.jsonl] [--output ANNOTATED.mp4] [--max-objects N] [--single] [--threshold F] [--max-labels N] [--localizer DETECTOR.tflite] [--threads N] [--track-high F] [--track-low F] [--track-new F] [--track-iou F] [--track-appearance F] [--track-size F] [--track-group F] [--track-part F] [--track-confirm N] [--track-coast-ms N]"

    static func run(_ raw: [String]) throws {
        var args = try Arguments(raw, booleanFlags: ["single", "quiet"])
        let model = args.string("model")
        let options = CustomObjectDetectorOptions(localModel: LocalModel(path: model ?? ""))
        options.detectorMode = .stream
        options.shouldEnableClassification = model != nil
        options.shouldEnableMultipleObjects = !args.flag("single")
        if let n = try args.int("max-objects") {
            guard n >= 1 else { throw CLIError.usage("--max-objects must be at least 1, got \(n)") }
            options.maxObjectCount = n
        }
        if let threshold = try args.float("threshold") { options.classificationConfidenceThreshold = NSNumber(value: threshold) }
        if let count = try args.int("max-labels") { options.maxPerObjectLabelCount = count }
        if let localizer = args.string("localizer") { options.localizerModel = LocalModel(path: localizer) }
        if let threads = try args.int("threads") {
            guard (1...256).contains(threads) else { throw CLIError.usage("--threads must be between 1 and 256, got \(threads)") }
            options.numThreads = threads
        }
        var tracker = options.trackerOptions
        if let v = try args.float("track-high") { tracker.highScoreThreshold = Double(v) }
        if let v = try args.float("track-low") { tracker.lowScoreThreshold = Double(v) }
        if let v = try args.float("track-new") { tracker.newTrackThreshold = Double(v) }
        if let v = try args.float("track-iou") { tracker.minimumIoU = Double(v) }
        if let v = try args.float("track-appearance") { tracker.appearanceWeight = Double(v) }
        if let v = try args.float("track-size") { tracker.sizeWeight = Double(v) }
        if let v = try args.float("track-group") { tracker.groupCoverage = Double(v) }
        if let v = try args.float("track-part") { tracker.partContainment = Double(v) }
        if let v = try args.int("track-confirm") { tracker.confirmationHits = v }
        if let v = try args.int("track-coast-ms") { tracker.maxCoastMs = v }
        try Self.check(tracker)
        options.trackerOptions = tracker
        let jsonlPath = args.string("jsonl")
        let detectionsPath = args.string("detections-jsonl")
        let outputPath = args.string("output")
        let quiet = args.flag("quiet")
        let inputs = args.positionals + args.list("video")
        try args.rejectUnknown()
        guard inputs.count == 1, let videoPath = inputs.first else { throw CLIError.usage("track needs exactly one VIDEO") }

        let detector = ObjectDetector.objectDetector(options: options)
        if let error = detector.modelError as? MLKitError { throw CLIError.task(code: Int(error.code), message: error.message) }
        let reader: VideoReader
        do { reader = try VideoReader(path: videoPath) } catch let e as VideoError { throw CLIError.task(code: e.code == .cannotOpen ? 5 : 3, message: e.message) }
        let jsonl = try jsonlPath.map(LineWriter.init(path:)) ?? LineWriter.standardOutput
        let detectionsOut = try detectionsPath.map(LineWriter.init(path:))
        var writer: VideoWriter?
        if let outputPath {
            do {
                writer = try VideoWriter(path: outputPath, width: reader.info.width, height: reader.info.height,
                                         framesPerSecond: reader.info.framesPerSecond ?? 30)
            } catch let e as VideoError { throw CLIError.failure(e.message) }
        }
        let started = Date()
        var frames = 0
        var failure: VideoError?
        while true {
            let frame: VideoFrame
            do {
                guard let next = try reader.nextFrame() else { break }
                frame = next
            } catch let e as VideoError {
                failure = e  // the frames before the damage are written; the error is reported after
                break
            }
            frames += 1
            let image = VisionImage(image: frame.image)
            image.timestampMs = frame.timestampMs
            let objects: [Object]
            do { objects = try detector.results(in: image) } catch let e as MLKitError { throw CLIError.task(code: Int(e.code), message: e.message) }
            try jsonl.write(frameJSON(frame, objects))
            if let detectionsOut {
                let items = detector.lastLocalizedObjects.map {
                    "{\"x\":\(number($0.box.x)),\"y\":\(number($0.box.y)),\"width\":\(number($0.box.width)),\"height\":\(number($0.box.height)),\"score\":\($0.score)}"
                }
                try detectionsOut.write("{\"frame\":\(frame.number),\"timestampMs\":\(frame.timestampMs),\"detections\":[\(items.joined(separator: ","))]}")
            }
            if let writer {
                var canvas = Canvas(frame.bitmap)
                for o in objects {
                    let id = o.trackingID?.intValue
                    var label = id.map { "#\($0)" } ?? ""
                    if let top = o.labels.first { label += (label.isEmpty ? "" : " ") + String(format: "%@ %.0f%%", top.text, top.confidence * 100) }
                    canvas.drawLabeledBox(x: Int(o.frame.origin.x), y: Int(o.frame.origin.y), width: Int(o.frame.size.width),
                                          height: Int(o.frame.size.height), label: label, color: .forIndex(id ?? 0))
                }
                do { try writer.write(canvas.bitmap, timestampMs: frame.timestampMs) } catch let e as VideoError { throw CLIError.failure(e.message) }
            }
        }
        try jsonl.close()
        try detectionsOut?.close()
        do { try writer?.finish() } catch let e as VideoError { throw CLIError.failure(e.message) }
        let seconds = Date().timeIntervalSince(started)
        if !quiet {
            FileHandle.standardError.write(Data(String(format: "track: %d frames in %.1f s (%.1f frames/s), %d classifier runs\n",
                                                       frames, seconds, Double(frames) / max(seconds, 1e-9), detector.classificationCount).utf8))
        }
        if let failure { throw CLIError.task(code: 3, message: failure.message) }
    }

    /// Refuses tracker parameters out of their ranges.
    static func check(_ t: TrackerOptions) throws {
        for (name, v) in [("track-high", t.highScoreThreshold), ("track-low", t.lowScoreThreshold), ("track-new", t.newTrackThreshold),
                          ("track-iou", t.minimumIoU), ("track-appearance", t.appearanceWeight), ("track-size", t.sizeWeight)] where !(0...1).contains(v) {
            throw CLIError.usage("--\(name) must be between 0 and 1, got \(v)")
        }
        guard (1...100).contains(t.confirmationHits) else { throw CLIError.usage("--track-confirm must be between 1 and 100, got \(t.confirmationHits)") }
        guard (0...60_000).contains(t.maxCoastMs) else { throw CLIError.usage("--track-coast-ms must be between 0 and 60000, got \(t.maxCoastMs)") }
    }

    /// `{"frame": k, "timestampMs": t, "objects": [...]}`.
    static func frameJSON(_ frame: VideoFrame, _ objects: [Object]) -> String {
        let items = objects.map { o -> String in
            let f = o.frame
            let labels = o.labels.map { "{\"text\":\(ResultJSON.escape($0.text)),\"confidence\":\($0.confidence),\"index\":\($0.index)}" }
            return "{\"frame\":{\"x\":\(number(Double(f.origin.x))),\"y\":\(number(Double(f.origin.y))),\"width\":\(number(Double(f.size.width))),\"height\":\(number(Double(f.size.height)))},"
                + "\"trackingID\":\(o.trackingID.map { "\($0.intValue)" } ?? "null"),\"labels\":[\(labels.joined(separator: ","))]}"
        }
        return "{\"frame\":\(frame.number),\"timestampMs\":\(frame.timestampMs),\"objects\":[\(items.joined(separator: ","))]}"
    }

    /// Integers without a fraction, others with up to 3 decimals.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.3f", v)
    }
}
