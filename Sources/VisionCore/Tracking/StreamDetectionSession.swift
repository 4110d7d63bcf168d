import Dispatch
import Imaging

/// Detect, track and classify objects (the core of ML Kit's object detector): the localizer runs
/// on the stored pixels with their orientation; single-image mode keeps the confident boxes (or
/// the most prominent one); stream mode tracks them (``ObjectTracker``) and gives them IDs; each
/// chosen object is labelled by the classifier on its grown box — in stream mode from a per-track
/// label cache while the box stays put. Boxes are in the stored pixels throughout.
///
/// Not thread-safe: one picture at a time (the facade holds it under a lock).
package final class StreamDetectionSession {
    package let options: StreamDetectionOptions
    private let localizer: any ObjectLocalizing
    private let classifier: (any RegionClassifying)?
    private let tracker: ObjectTracker
    private let appearance: Bool
    private let started: UInt64
    private var frameCount = 0
    private var labelCache: [Int: CachedLabels] = [:]
    private var shownIDs: Set<Int> = []
    private var mainID: Int?

    /// Every box the localizer found in the last picture, before selection and tracking.
    package private(set) var lastLocalized: [LocalizedBox] = []
    /// How many times the classifier has run.
    package private(set) var classificationCount = 0

    private struct CachedLabels {
        var labels: [Category]
        var box: TrackBox
        var frame: Int
    }

    /// `started`: the time (uptime nanoseconds) pictures without a timestamp are timed from.
    package init(
        options: StreamDetectionOptions, localizer: any ObjectLocalizing, classifier: (any RegionClassifying)?,
        started: UInt64 = DispatchTime.now().uptimeNanoseconds
    ) {
        self.options = options
        self.localizer = localizer
        self.classifier = classifier
        self.tracker = ObjectTracker(options: options.tracker)
        self.appearance = options.tracker.appearanceWeight > 0
        self.started = started
    }

    /// The objects in `bitmap` shown with `orientation`. `timestampMs` orders stream frames (nil:
    /// the time since the session started).
    package func process(_ bitmap: Bitmap, orientation: ImageOrientation, timestampMs: Int?) throws -> [SessionObject] {
        frameCount += 1
        let candidates = try localizer.localize(bitmap, orientation: orientation)
        lastLocalized = candidates
        let width = Double(bitmap.width), height = Double(bitmap.height)
        let chosen: [(box: TrackBox, score: Float, id: Int?)]
        switch options.mode {
        case .singleImage:
            let confident = candidates.filter { $0.score >= options.localizerThreshold }
            if options.maxObjects == 1 {
                chosen =
                    confident.max {
                        Self.prominence($0.box, $0.score, width, height)
                            < Self.prominence($1.box, $1.score, width, height)
                    }
                    .map { [($0.box, $0.score, nil)] } ?? []
            } else {
                chosen = confident.prefix(options.maxObjects).map { ($0.box, $0.score, nil) }
            }
        case .stream:
            let timestamp = timestampMs ?? Int((DispatchTime.now().uptimeNanoseconds &- started) / 1_000_000)
            chosen = track(candidates, in: bitmap, timestamp: timestamp).map {
                ($0.box, Float($0.score), $0.trackingID)
            }
        }
        return try chosen.map { c in
            let found =
                try classifier.map { try labels(c.box, id: c.id, in: bitmap, orientation: orientation, $0) } ?? []
            return SessionObject(box: c.box, score: c.score, trackingID: c.id, labels: found)
        }
    }

    /// Stream mode: the tracked objects to show — the main one kept while tracked (one object),
    /// else those already shown first, then the best scores, in ID order.
    private func track(_ candidates: [LocalizedBox], in bitmap: Bitmap, timestamp: Int) -> [TrackedObject] {
        let width = Double(bitmap.width), height = Double(bitmap.height)
        let detections = candidates.map {
            TrackerDetection(
                box: $0.box, score: Double($0.score),
                appearance: appearance ? AppearanceSignature.compute(bitmap, box: $0.box) : nil)
        }
        let tracked = tracker.update(
            detections, timestampMs: timestamp, frameWidth: bitmap.width, frameHeight: bitmap.height)
        var picked: [TrackedObject]
        if options.maxObjects == 1 {
            if let kept = tracked.first(where: { $0.trackingID == mainID }) {
                picked = [kept]
            } else {
                picked =
                    tracked.max {
                        Self.prominence($0.box, Float($0.score), width, height)
                            < Self.prominence($1.box, Float($1.score), width, height)
                    }
                    .map { [$0] } ?? []
            }
            mainID = picked.first?.trackingID ?? mainID
        } else {
            picked = tracked.sorted {
                let a = shownIDs.contains($0.trackingID), b = shownIDs.contains($1.trackingID)
                return a != b ? a : ($0.score != $1.score ? $0.score > $1.score : $0.trackingID < $1.trackingID)
            }
            picked = Array(picked.prefix(options.maxObjects)).sorted { $0.trackingID < $1.trackingID }
        }
        shownIDs = Set(picked.map(\.trackingID))
        let live = Set(tracked.map(\.trackingID))
        labelCache = labelCache.filter {
            live.contains($0.key) || frameCount - $0.value.frame < 2 * options.reclassifyInterval
        }
        return picked
    }

    /// An object's labels: classified now, or (stream mode) the track's labels while its box has
    /// not changed much and fewer than `reclassifyInterval` frames have passed.
    private func labels(
        _ box: TrackBox, id: Int?, in bitmap: Bitmap, orientation: ImageOrientation,
        _ classifier: any RegionClassifying
    ) throws -> [Category] {
        if let id, let cached = labelCache[id], frameCount - cached.frame < options.reclassifyInterval,
            cached.box.iou(box) >= options.reclassifyIoU
        {
            return cached.labels
        }
        let width = Double(bitmap.width), height = Double(bitmap.height), margin = options.classificationMargin
        let grown = TrackBox(
            x: box.x - box.width * margin, y: box.y - box.height * margin,
            width: box.width * (1 + 2 * margin), height: box.height * (1 + 2 * margin)
        ).clipped(width: width, height: height)
        guard grown.width >= 1, grown.height >= 1 else { return [] }
        let region = NormalizedRect(
            x: grown.x / width, y: grown.y / height, width: grown.width / width, height: grown.height / height)
        let labels = try classifier.classifyRegion(bitmap, orientation: orientation, region: region)
        classificationCount += 1
        if let id { labelCache[id] = CachedLabels(labels: labels, box: box, frame: frameCount) }
        return labels
    }

    /// Forgets every tracked object (IDs are not reused afterwards).
    package func reset() {
        tracker.reset()
        labelCache.removeAll()
        shownIDs.removeAll()
        mainID = nil
    }

    /// The single-object rule: score × area fraction × closeness to the centre, where closeness
    /// is 1 − ½ × (distance from the box centre to the picture centre ÷ half the diagonal).
    /// Unchanged by the picture's orientation (given the stored width and height).
    package static func prominence(_ box: TrackBox, _ score: Float, _ width: Double, _ height: Double) -> Double {
        let dx = box.centerX - width / 2, dy = box.centerY - height / 2
        let halfDiagonal = max((width * width + height * height).squareRoot() / 2, 1)
        let closeness = 1 - 0.5 * min((dx * dx + dy * dy).squareRoot() / halfDiagonal, 1)
        return Double(score) * (box.area / max(width * height, 1)) * closeness
    }
}
