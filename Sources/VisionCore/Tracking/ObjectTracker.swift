import Foundation

/// A multi-object tracker for stream mode: a Kalman motion model per track, two-stage association
/// (high-score detections first with IoU and appearance, then low-score ones with IoU only, as in
/// ByteTrack), confirmation before an ID is shown, coasting through short occlusions, and a new ID
/// for an object that leaves the frame and comes back (ML Kit's rule). IDs are never reused.
/// Deterministic: the same detections give the same IDs. Not thread-safe.
package final class ObjectTracker {
    package let options: TrackerOptions

    private struct Track {
        var filter: KalmanBoxFilter
        /// nil until confirmed.
        var id: Int?
        var hits: Int
        /// Frames since the last match (0 = matched on the last update).
        var missed: Int
        var lastMatchMs: Int
        var lastBox: TrackBox
        var appearance: [Float]?
    }

    private var tracks: [Track] = []
    private var nextID = 0
    private var lastTimestamp: Int?
    /// Running estimate of the time between frames (ms), for the motion model's step.
    private var frameInterval: Double = 33.3

    package init(options: TrackerOptions = TrackerOptions()) {
        self.options = options
    }

    /// Forgets every track (IDs keep increasing: none is reused).
    package func reset() {
        tracks.removeAll()
        lastTimestamp = nil
    }

    /// The ID the next confirmed track will get.
    package var nextTrackingID: Int { nextID }

    /// Tracks `detections` of the frame shown at `timestampMs` (`frameWidth`×`frameHeight` pixels)
    /// and returns the confirmed tracks matched in it, by ID. A timestamp not after the previous one,
    /// or more than ``TrackerOptions/resetGapMs`` after it, resets the tracker first.
    package func update(
        _ detections: [TrackerDetection], timestampMs: Int, frameWidth: Int, frameHeight: Int
    ) -> [TrackedObject] {
        var steps = 1.0
        if let last = lastTimestamp {
            let dt = timestampMs - last
            if dt <= 0 || dt > options.resetGapMs {
                reset()
            } else {
                steps = min(max(Double(dt) / frameInterval, 0.25), 10)
                frameInterval = 0.9 * frameInterval + 0.1 * min(Double(dt), 250)
            }
        }
        if lastTimestamp == nil, tracks.isEmpty { steps = 1 }
        lastTimestamp = timestampMs
        let W = Double(max(frameWidth, 1)), H = Double(max(frameHeight, 1))
        let usable = detections.indices.filter {
            detections[$0].box.isFinite && detections[$0].box.area > 0 && detections[$0].score.isFinite
        }
        for i in tracks.indices { tracks[i].filter.predict(steps: steps) }

        // A box covering most of two or more followed objects is a group, not an object: it neither
        // moves a track nor starts one (the objects' own boxes, if any, do).
        let predictions = tracks.filter { $0.id != nil }.map { $0.filter.box }
        let groups = Set(
            usable.filter { d in
                let box = detections[d].box
                // Each covered object is a sizeable part of the box, and the box is not one of them.
                let covered = predictions.filter {
                    $0.fractionInside(box) >= options.groupCoverage && $0.area >= 0.2 * box.area
                }
                return covered.count >= 2 && !covered.contains { $0.iou(box) >= 0.6 }
            })
        let candidates = usable.filter { !groups.contains($0) }
        let high = candidates.filter { detections[$0].score >= options.highScoreThreshold }
        let low = candidates.filter {
            detections[$0].score >= options.lowScoreThreshold && detections[$0].score < options.highScoreThreshold
        }
        var matches: [(track: Int, detection: Int)] = []

        // Stage 1: confirmed tracks (followed or coasting) against high-score detections.
        let confirmed = tracks.indices.filter { tracks[$0].id != nil }
        let first = associate(confirmed, high, detections, minimumIoU: options.minimumIoU, appearance: true)
        matches += first.matches

        // Stage 2: confirmed tracks followed on the last frame against low-score detections.
        let followed = first.unmatchedTracks.filter { tracks[$0].missed == 0 }
        let second = associate(followed, low, detections, minimumIoU: options.minimumLowScoreIoU, appearance: false)
        matches += second.matches

        // Stage 3: tentative tracks against the high-score detections left.
        let tentative = tracks.indices.filter { tracks[$0].id == nil }
        let third = associate(tentative, first.unmatchedDetections, detections, minimumIoU: 0.3, appearance: false)
        matches += third.matches

        var result: [TrackedObject] = []
        var matchedTracks = Set<Int>()
        for (t, d) in matches {
            matchedTracks.insert(t)
            let det = detections[d]
            // Near another track (objects crossing, one hiding the other) the detection may cover
            // both objects: its motion is not learnt.
            let crowded = tracks.indices.contains {
                $0 != t && tracks[$0].id != nil && tracks[$0].filter.box.iou(det.box) > 0.2
            }
            let predicted = tracks[t].filter.box
            let growth = max(det.box.area, 1) / max(predicted.area, 1)
            if crowded && (growth > 1.4 || growth < 1 / 1.4) {
                // Probably both objects in one box: the track keeps its own motion and size.
            } else {
                tracks[t].filter.update(det.box, keepVelocity: crowded)
            }
            tracks[t].hits += 1
            tracks[t].missed = 0
            tracks[t].lastMatchMs = timestampMs
            tracks[t].lastBox = det.box
            // The appearance is learnt only from boxes that overlap no other detection, so that
            // two objects passing each other do not blend their colours.
            let isolated = !usable.contains {
                $0 != d && detections[$0].score >= options.lowScoreThreshold && detections[$0].box.iou(det.box) > 0.1
            }
            if let a = det.appearance, isolated || tracks[t].appearance == nil {
                if let old = tracks[t].appearance, old.count == a.count {
                    tracks[t].appearance = zip(old, a).map { 0.8 * $0 + 0.2 * $1 }
                } else {
                    tracks[t].appearance = a
                }
            }
            if tracks[t].id == nil, tracks[t].hits >= options.confirmationHits {
                tracks[t].id = nextID
                nextID += 1
            }
            if let id = tracks[t].id {
                result.append(
                    TrackedObject(
                        trackingID: id, box: det.box, score: det.score, detectionIndex: d, hits: tracks[t].hits))
            }
        }

        // Unmatched tracks: tentative ones end; confirmed ones coast until they leave the frame or
        // have been unseen for too long.
        var kept: [Track] = []
        for i in tracks.indices {
            var t = tracks[i]
            if !matchedTracks.contains(i) {
                guard t.id != nil else { continue }
                t.missed += 1
                t.filter.freezeSize()
                let predicted = t.filter.box
                if predicted.visibleFraction(width: W, height: H) < options.exitVisibleFraction { continue }
                if t.missed >= 2, Self.touchesEdge(t.lastBox, width: W, height: H) { continue }
                if timestampMs - t.lastMatchMs > options.maxCoastMs { continue }
            }
            kept.append(t)
        }
        tracks = kept

        // New tentative tracks from the confident detections nobody took.
        let taken = Set(matches.map(\.detection))
        // A box mostly inside a better-scored one is a part of that object (a head, a wheel): it
        // does not start a track of its own.
        func isPart(_ d: Int) -> Bool {
            candidates.contains { o in
                o != d && detections[o].score > detections[d].score
                    && detections[d].box.fractionInside(detections[o].box) >= options.partContainment
            }
        }
        for d in third.unmatchedDetections
        where !taken.contains(d) && detections[d].score >= options.newTrackThreshold && !isPart(d) {
            let det = detections[d]
            var track = Track(
                filter: KalmanBoxFilter(det.box), id: nil, hits: 1, missed: 0, lastMatchMs: timestampMs,
                lastBox: det.box, appearance: det.appearance)
            if options.confirmationHits <= 1 {
                track.id = nextID
                nextID += 1
                result.append(
                    TrackedObject(trackingID: nextID - 1, box: det.box, score: det.score, detectionIndex: d, hits: 1))
            }
            tracks.append(track)
        }
        return result.sorted { $0.trackingID < $1.trackingID }
    }

    /// Optimal assignment of `trackIndices` to `detectionIndices` by 1 − IoU (blended with the
    /// appearance distance when asked), pairs below `minimumIoU` excluded.
    private func associate(
        _ trackIndices: [Int], _ detectionIndices: [Int], _ detections: [TrackerDetection],
        minimumIoU: Double, appearance: Bool
    )
        -> (matches: [(track: Int, detection: Int)], unmatchedTracks: [Int], unmatchedDetections: [Int])
    {
        guard !trackIndices.isEmpty, !detectionIndices.isEmpty else { return ([], trackIndices, detectionIndices) }
        let weight = appearance ? min(max(options.appearanceWeight, 0), 1) : 0
        var cost = [[Double]](
            repeating: [Double](repeating: .infinity, count: detectionIndices.count), count: trackIndices.count)
        for (r, t) in trackIndices.enumerated() {
            let predicted = tracks[t].filter.box
            for (c, d) in detectionIndices.enumerated() {
                let det = detections[d]
                let iou = predicted.iou(det.box)
                // A coasting track may be picked up again a little further from its prediction
                // when it still looks the same.
                var gate = minimumIoU
                var distance = 1.0
                if weight > 0, let a = tracks[t].appearance, let b = det.appearance {
                    distance = AppearanceSignature.distance(a, b)
                    if tracks[t].missed > 0, distance < 0.3 { gate = minimumIoU * 0.5 }
                }
                guard iou >= gate else { continue }
                // A box much larger or smaller than the prediction is often two objects merged, or
                // a part of one: it costs more.
                let ratio = max(det.box.area, 1) / max(predicted.area, 1)
                let sizePenalty = options.sizeWeight * min(abs(log(ratio)), 1.5)
                cost[r][c] = min(1, (weight > 0 ? (1 - weight) * (1 - iou) + weight * distance : 1 - iou) + sizePenalty)
            }
        }
        let pairs = HungarianAssignment.solve(cost, maxCost: 1)
        var matches: [(track: Int, detection: Int)] = []
        var usedTracks = Set<Int>(), usedDetections = Set<Int>()
        for p in pairs {
            matches.append((trackIndices[p.row], detectionIndices[p.column]))
            usedTracks.insert(p.row)
            usedDetections.insert(p.column)
        }
        let unmatchedTracks = trackIndices.enumerated().filter { !usedTracks.contains($0.offset) }.map(\.element)
        let unmatchedDetections = detectionIndices.enumerated().filter { !usedDetections.contains($0.offset) }.map(
            \.element)
        return (matches, unmatchedTracks, unmatchedDetections)
    }

    /// True when `box` reaches within 1 % of the frame's edge.
    private static func touchesEdge(_ box: TrackBox, width: Double, height: Double) -> Bool {
        let mx = width * 0.01, my = height * 0.01
        return box.x <= mx || box.y <= my || box.x + box.width >= width - mx || box.y + box.height >= height - my
    }
}
