import Testing

@testable import VisionCore

/// The tracker on synthetic detections with known identities: crossings, occlusions, exits and
/// re-entries, confirmation, low-score continuation, resets, determinism.
@Suite("Object tracker")
struct ObjectTrackerTests {
    /// A flat colour's appearance signature (all weight in one bin).
    static func colour(_ bin: Int) -> [Float] {
        var a = [Float](repeating: 0, count: AppearanceSignature.bins)
        a[bin] = 1
        return a
    }

    static func box(_ cx: Double, _ cy: Double, _ w: Double = 60, _ h: Double = 60) -> TrackBox {
        TrackBox(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
    }

    /// Runs `frames` (each: detections) at 30 fps and returns, per frame, detection index → ID.
    static func run(_ tracker: ObjectTracker, _ frames: [[TrackerDetection]], start: Int = 0) -> [[Int: Int]] {
        frames.enumerated().map { (i, dets) in
            let out = tracker.update(dets, timestampMs: start + i * 33, frameWidth: 640, frameHeight: 360)
            return Dictionary(uniqueKeysWithValues: out.map { ($0.detectionIndex, $0.trackingID) })
        }
    }

    @Test("a new object gets an ID on its third frame; IDs start at 0")
    func confirmation() {
        let t = ObjectTracker()
        let ids = Self.run(
            t, (0..<5).map { i in [TrackerDetection(box: Self.box(100 + Double(i) * 4, 100), score: 0.9)] })
        #expect(ids == [[:], [:], [0: 0], [0: 0], [0: 0]])
        #expect(t.nextTrackingID == 1)
    }

    @Test("two objects crossing keep their IDs (motion and appearance)")
    func crossing() {
        let t = ObjectTracker()
        // A moves right, B moves left, same row: they overlap fully mid-way. Detection order swaps.
        let frames: [[TrackerDetection]] = (0..<60).map { i in
            let a = TrackerDetection(box: Self.box(100 + Double(i) * 7, 180), score: 0.9, appearance: Self.colour(3))
            let b = TrackerDetection(box: Self.box(513 - Double(i) * 7, 185), score: 0.85, appearance: Self.colour(40))
            return i % 2 == 0 ? [a, b] : [b, a]
        }
        let ids = Self.run(t, frames)
        for (i, frame) in ids.enumerated() where i >= 2 {
            let aIndex = i % 2 == 0 ? 0 : 1
            #expect(frame[aIndex] == 0 && frame[1 - aIndex] == 1, "frame \(i): \(frame)")
        }
    }

    @Test("an object hidden for 15 frames while moving keeps its ID")
    func occlusion() {
        let t = ObjectTracker()
        let frames: [[TrackerDetection]] = (0..<50).map { i in
            (20..<35).contains(i)
                ? []
                : [TrackerDetection(box: Self.box(80 + Double(i) * 6, 150), score: 0.8, appearance: Self.colour(9))]
        }
        let ids = Self.run(t, frames)
        #expect(ids[19] == [0: 0] && ids[35] == [0: 0] && ids[49] == [0: 0])
        #expect(t.nextTrackingID == 1)
    }

    @Test("an object that leaves the frame and comes back gets a new ID; IDs are never reused")
    func reentry() {
        let t = ObjectTracker()
        // Moves right out of the 640-wide frame, then comes back left.
        var frames: [[TrackerDetection]] = []
        for i in 0..<40 {
            let cx = 500 + Double(i) * 8
            let b = Self.box(cx, 150).clipped(width: 640, height: 360)
            frames.append(b.width > 10 ? [TrackerDetection(box: b, score: 0.9, appearance: Self.colour(5))] : [])
        }
        for i in 0..<30 {
            let cx = 700 - Double(i) * 8
            let b = Self.box(cx, 150).clipped(width: 640, height: 360)
            frames.append(b.width > 10 ? [TrackerDetection(box: b, score: 0.9, appearance: Self.colour(5))] : [])
        }
        let ids = Self.run(t, frames)
        let all = Set(ids.flatMap(\.values))
        #expect(all == [0, 1])
        #expect(ids[10] == [0: 0] && ids[69] == [0: 1])
    }

    @Test("low-score detections continue a track but never start one")
    func lowScores() {
        let t = ObjectTracker()
        let strong = (0..<5).map { i in [TrackerDetection(box: Self.box(100 + Double(i) * 3, 100), score: 0.9)] }
        let weak = (5..<10).map { i in [TrackerDetection(box: Self.box(100 + Double(i) * 3, 100), score: 0.3)] }
        let ids = Self.run(t, strong + weak)
        #expect(ids[9] == [0: 0])
        let fresh = ObjectTracker()
        #expect(
            Self.run(fresh, (0..<6).map { _ in [TrackerDetection(box: Self.box(300, 200), score: 0.3)] }).allSatisfy {
                $0.isEmpty
            })
        // Below the low threshold: ignored even for a followed track.
        let t2 = ObjectTracker()
        let ids2 = Self.run(t2, strong + [[TrackerDetection(box: Self.box(115, 100), score: 0.05)]])
        #expect(ids2[5].isEmpty)
    }

    @Test("a gap over 1 s, or a timestamp going back, resets: the object gets a new ID")
    func resets() {
        let t = ObjectTracker()
        let det = [TrackerDetection(box: Self.box(200, 200), score: 0.9)]
        #expect(Self.run(t, Array(repeating: det, count: 4)).last == [0: 0])
        #expect(Self.run(t, Array(repeating: det, count: 4), start: 5000).map(\.isEmpty) == [true, true, false, false])
        // 99 ms < the last frame: reset
        #expect(Self.run(t, Array(repeating: det, count: 3), start: 5000 + 99).last == [0: 2])
        #expect(t.nextTrackingID == 3)
        t.reset()
        #expect(Self.run(t, Array(repeating: det, count: 3), start: 9000).last == [0: 3])
    }

    @Test("same detections, same IDs; NaN and empty boxes are ignored")
    func determinism() {
        func frames() -> [[TrackerDetection]] {
            var seed: UInt64 = 42
            func next() -> Double {
                seed = seed &* 6364136223846793005 &+ 1; return Double(seed >> 40) / Double(1 << 24)
            }
            return (0..<80).map { i in
                (0..<4).map { k in
                    TrackerDetection(
                        box: Self.box(60 + Double(k) * 130 + Double(i) * 2 + next() * 4, 180 + next() * 4),
                        score: 0.5 + next() / 2)
                }
                    + [
                        TrackerDetection(box: TrackBox(x: .nan, y: 0, width: 10, height: 10), score: 0.9),
                        TrackerDetection(box: TrackBox(x: 5, y: 5, width: 0, height: 10), score: 0.9),
                    ]
            }
        }
        let a = Self.run(ObjectTracker(), frames()), b = Self.run(ObjectTracker(), frames())
        #expect(a == b)
        #expect(Set(a.last?.values.map { $0 } ?? []) == [0, 1, 2, 3])
        #expect(a.allSatisfy { $0[4] == nil && $0[5] == nil })
    }

    @Test("the assignment is optimal, and pairs above the cost limit stay unassigned")
    func hungarian() {
        let cost: [[Double]] = [[0.9, 0.1, 0.5], [0.2, 0.3, 0.9], [0.4, 0.8, 0.7]]
        #expect(
            HungarianAssignment.solve(cost, maxCost: 1).map { [$0.row, $0.column] } == [[0, 1], [1, 0], [2, 2]])
        #expect(
            HungarianAssignment.solve([[0.9, .infinity], [.infinity, 0.2]], maxCost: 0.5).map { [$0.row, $0.column] }
                == [[1, 1]])
        #expect(HungarianAssignment.solve([[0.3], [0.1]], maxCost: 1).map { [$0.row, $0.column] } == [[1, 0]])
        #expect(HungarianAssignment.solve([], maxCost: 1).isEmpty)
        // Two costly pairs (0.7 + 0.65) lose to one cheap pair (0.1) plus two unmatched ends (0.5 + 0.5).
        #expect(
            HungarianAssignment.solve([[0.1, 0.65], [0.7, .infinity]], maxCost: 1).map { [$0.row, $0.column] } == [
                [0, 0]
            ])
    }

    @Test("a box mostly inside a better one (a part of the object) starts no track")
    func parts() {
        let t = ObjectTracker()
        let body = TrackerDetection(box: TrackBox(x: 100, y: 100, width: 80, height: 200), score: 0.8)
        let head = TrackerDetection(box: TrackBox(x: 120, y: 105, width: 40, height: 40), score: 0.6)
        let ids = Self.run(t, Array(repeating: [body, head], count: 5))
        #expect(ids.last == [0: 0])
        #expect(t.nextTrackingID == 1)
    }

    @Test("a confident box around two followed objects (a group) moves no track and starts none")
    func groups() {
        let t = ObjectTracker()
        let a = TrackerDetection(box: Self.box(200, 180), score: 0.8),
            b = TrackerDetection(box: Self.box(265, 185), score: 0.75)
        let group = TrackerDetection(box: TrackBox(x: 165, y: 145, width: 135, height: 75), score: 0.9)
        let ids = Self.run(t, Array(repeating: [a, b], count: 4) + Array(repeating: [group, a, b], count: 6))
        #expect(ids[3] == [0: 0, 1: 1])
        #expect(ids[9] == [1: 0, 2: 1])
        #expect(t.nextTrackingID == 2)
    }

    @Test("a box covering two crossing objects does not drag one track onto the other")
    func mergedBoxes() {
        let t = ObjectTracker()
        var frames: [[TrackerDetection]] = []
        for i in 0..<60 {
            let a = Self.box(150 + Double(i) * 5, 180), b = Self.box(450 - Double(i) * 5, 180)
            if (26...34).contains(i) {
                // Only one box for both while they overlap.
                let x0 = min(a.x, b.x), x1 = max(a.x + a.width, b.x + b.width)
                frames.append([TrackerDetection(box: TrackBox(x: x0, y: 150, width: x1 - x0, height: 60), score: 0.7)])
            } else {
                frames.append([TrackerDetection(box: a, score: 0.8), TrackerDetection(box: b, score: 0.75)])
            }
        }
        let ids = Self.run(t, frames)
        #expect(ids[20] == [0: 0, 1: 1])
        #expect(ids[59] == [0: 0, 1: 1])
    }
}
