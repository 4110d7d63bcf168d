import Foundation
import Imaging
import MLKit
import Video
import VisionAnalytics
import VisionCore

/// `track`: ML Kit's object detection, tracking and classification — stream mode on video frames
/// (tracking IDs; a new tracker per video), single-image mode on pictures.
package final class TrackTask: BatchTask {
    package let name = "track"
    private let options: CustomObjectDetectorOptions
    private let pictureDetector: ObjectDetector
    private var streamDetector = PerVideo<ObjectDetector>()
    private var finishedClassifications = 0
    private var detectionsOut: LineWriter?
    private let zones: ZoneConfig
    /// The current video's lines and zones (nil: none given, or no frame yet).
    private var zoneCounter: ZoneCounter?
    private var zoneVideo = -1
    /// Tracks carry from frame to frame.
    package let isStateful = true

    package init(_ config: TrackConfig) throws {
        options = CustomObjectDetectorOptions(localModel: LocalModel(path: config.modelPath ?? ""))
        options.shouldEnableClassification = config.modelPath != nil
        options.shouldEnableMultipleObjects = !config.single
        if let n = config.maxObjects { options.maxObjectCount = n }
        if let t = config.threshold { options.classificationConfidenceThreshold = NSNumber(value: t) }
        if let n = config.maxLabels { options.maxPerObjectLabelCount = n }
        if let l = config.localizerPath { options.localizerModel = LocalModel(path: l) }
        options.numThreads = config.threads
        options.trackerOptions = config.tracker
        options.detectorMode = .singleImage
        pictureDetector = ObjectDetector.objectDetector(options: options)
        if let error = pictureDetector.modelError { throw error }
        detectionsOut = try config.detectionsJSONL.map { try LineWriter(path: $0) }
        zones = config.zones
    }

    package func picture(_ picture: Picture) throws -> TaskRecord {
        let image = picture.visionImage
        let objects = try pictureDetector.results(in: image)
        // A picture has no tracks: which zones each object is in, and how many are in each.
        guard var counter = try zones.counter(width: picture.shownWidth, height: picture.shownHeight) else {
            return Self.record(objects)
        }
        return Self.record(objects, counting: &counter, timestampMs: 0, events: false)
    }

    /// The record of `objects` counted by `counter`: each object's zones, the frame's events (videos),
    /// the running counts and the shapes to draw.
    package static func record(
        _ objects: [Object], counting counter: inout ZoneCounter, timestampMs: Int, events: Bool
    ) -> TaskRecord {
        let zoneObjects = Self.zoneObjects(objects)
        let update = counter.update(zoneObjects, timestampMs: timestampMs)
        var record = Self.record(objects, zones: update.zonesOfObject)
        if events { record.fields.append(("events", .array(update.events.map(ZoneReport.event)))) }
        record.fields.append(("counts", ZoneReport.counts(counter)))
        record.overlay = ZoneReport.overlay(counter, objects: zoneObjects)
        return record
    }

    /// Objects as lines and zones see them: class = the top label, else "object".
    package static func zoneObjects(_ objects: [Object]) -> [ZoneObject] {
        objects.map { o in
            ZoneObject(
                trackingID: o.trackingID?.intValue,
                box: Box(
                    x: Double(o.frame.origin.x), y: Double(o.frame.origin.y), width: Double(o.frame.size.width),
                    height: Double(o.frame.size.height)),
                className: o.labels.first?.text ?? "object")
        }
    }

    package func frame(_ frame: VideoFrame, video: Int) throws -> TaskRecord {
        if !streamDetector.holds(video) { finishedClassifications += streamDetector.current?.classificationCount ?? 0 }
        let detector = try streamDetector.get(video) {
            guard let o = options.copy() as? CustomObjectDetectorOptions else {
                throw PipelineError.failure("cannot copy the detector options")
            }
            o.detectorMode = .stream
            let d = ObjectDetector.objectDetector(options: o)
            if let error = d.modelError { throw error }
            return d
        }
        let image = VisionImage(image: UIImage(bitmap: frame.bitmap))
        image.timestampMs = frame.timestampMs
        let objects = try detector.results(in: image)
        var record = Self.record(objects)
        if !zones.isEmpty {
            if zoneVideo != video {
                zoneCounter = try zones.counter(width: frame.bitmap.width, height: frame.bitmap.height)
                zoneVideo = video
            }
            if var counter = zoneCounter.take() {  // taken out, so that the update does not copy its state
                record = Self.record(objects, counting: &counter, timestampMs: frame.timestampMs, events: true)
                zoneCounter = counter
            }
        }
        if let detectionsOut {
            let items: [JSONValue] = detector.lastLocalizedObjects.map {
                .object([
                    ("x", .number($0.box.origin.x)), ("y", .number($0.box.origin.y)),
                    ("width", .number($0.box.size.width)),
                    ("height", .number($0.box.size.height)), ("score", .float($0.score)),
                ])
            }
            try detectionsOut.write(
                JSONValue.object([
                    ("frame", .int(frame.number)), ("timestampMs", .int(frame.timestampMs)),
                    ("detections", .array(items)),
                ]).text)
        }
        return record
    }

    /// Classifier runs so far (stream mode reuses labels between runs).
    package var classificationCount: Int {
        finishedClassifications + (streamDetector.current?.classificationCount ?? 0)
    }
    package var summaryNote: String? { "\(classificationCount) classifier runs" }

    package func finish() throws { try detectionsOut?.close() }

    /// The video's line and zone summary (then forgotten: the next video starts its own).
    package func videoEnded() -> TaskRecord? {
        defer {
            zoneCounter = nil
            zoneVideo = -1
        }
        guard let counter = zoneCounter else { return nil }
        var record = TaskRecord(fields: [], text: "")
        record.zoneSummary = (ZoneReport.summary(counter), ZoneReport.lines(counter))
        return record
    }

    package static func record(_ objects: [Object], zones: [[String]]? = nil) -> TaskRecord {
        var record = TaskRecord(
            fields: [("objects", ResultFields.objects(objects, zones: zones))],
            text: objects.map(\.description).joined(separator: "\n"))
        for o in objects {
            let id = o.trackingID?.intValue
            var label = id.map { "#\($0)" } ?? ""
            if let top = o.labels.first {
                label += (label.isEmpty ? "" : " ") + String(format: "%@ %.0f%%", top.text, top.confidence * 100)
            }
            record.marks.append(
                .init(
                    x: Int(o.frame.origin.x), y: Int(o.frame.origin.y), width: Int(o.frame.size.width),
                    height: Int(o.frame.size.height), label: label, color: id ?? (o.labels.first?.index ?? 0)))
            record.classes.append(o.labels.first?.text ?? "object")
            record.identities.append(id)
        }
        return record
    }

    package func liveSession(deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) throws -> LiveSession? {
        nil
    }
}
