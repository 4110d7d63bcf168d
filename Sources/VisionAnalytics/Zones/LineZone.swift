/// Counts tracked objects crossing a line segment, in and out, per class — supervision's
/// `LineZone` rule (0.30.9), re-derived so that the same tracks give the same counts:
///
/// - An object is placed on a side by its ``anchors``: all of them must lie between the two
///   perpendiculars through the segment's ends (beyond the segment's ends nothing counts), and all
///   on the same side (an object straddling the line is skipped for that frame).
/// - The "in" side is where `(end − start) × (anchor − start) < 0`: for a line drawn from top to
///   bottom, the right of the picture; drawn from left to right, the part above it. A point exactly
///   on the line is on the "out" side.
/// - The first side a track is seen on is its reference. A crossing is counted when the track has
///   been seen on the other side for ``minimumCrossingFrames`` observations in a row (frames where it
///   is missing, outside the limits or straddling neither extend nor break the run); shorter
///   excursions are noise. The new side becomes the reference.
/// - A track missing for ``forgetAfterFrames`` frames in a row is forgotten (its next appearance
///   sets a new reference). **Here we differ from supervision by default**: supervision forgets a
///   track after `max(2, minimumCrossingFrames + 1)` missing frames, so an object that crosses
///   while hidden (behind another, behind a pole) is not counted; we remember a track's side for
///   300 frames (10 s at 30 fps, longer than trackers keep a lost ID), so it is. Pass
///   `forgetAfterFrames: max(2, minimumCrossingFrames + 1)` for supervision's exact behaviour.
///
/// Every counted crossing is an event (``inCountPerClass``, ``outCountPerClass``: supervision's
/// `in_count_per_class`/`out_count_per_class`). ``netInCountPerClass``/``netOutCountPerClass`` count
/// each track ID once, by the sign of its crossings in minus out (crossings of one track alternate,
/// so the sign says which side it ended on) — a box jittering on the line, or an object that goes in
/// and comes back out, adds nothing to them.
public struct LineZone: Sendable {
    /// The line's name, as reports show it.
    public let name: String
    /// One end of the segment.
    public let start: Point
    /// The other end of the segment.
    public let end: Point
    /// The box points that place an object (all must agree).
    public let anchors: [BoxAnchor]
    /// Observations on the new side needed to count a crossing.
    public let minimumCrossingFrames: Int
    /// Frames a track may be missing before its side is forgotten.
    public let forgetAfterFrames: Int

    private let historyLength: Int
    private let limitStart: (from: Point, to: Point)
    private let limitEnd: (from: Point, to: Point)
    private var history: [Int: [Bool]] = [:]
    private var confirmedSide: [Int: Bool] = [:]
    private var absentFrames: [Int: Int] = [:]
    private var net: [Int: (count: Int, className: String)] = [:]

    /// Crossings to the "in" side, per class.
    public private(set) var inCountPerClass: [String: Int] = [:]
    /// Crossings to the "out" side, per class.
    public private(set) var outCountPerClass: [String: Int] = [:]

    /// A line from `start` to `end` (pixels). Throws ``AnalyticsError`` for a zero-length line, no
    /// anchors, fewer than one crossing frame or a track forgotten before it could cross.
    public init(
        name: String, start: Point, end: Point, anchors: [BoxAnchor] = [.bottomCenter], minimumCrossingFrames: Int = 1,
        forgetAfterFrames: Int = 300
    ) throws {
        guard !anchors.isEmpty else { throw AnalyticsError(.badInput, "line \(name): give at least one anchor") }
        guard minimumCrossingFrames >= 1 else {
            throw AnalyticsError(
                .badInput, "line \(name): the minimum crossing frames must be at least 1, not \(minimumCrossingFrames)")
        }
        guard forgetAfterFrames >= 1 else {
            throw AnalyticsError(
                .badInput,
                "line \(name): a track must be remembered for at least 1 missing frame, not \(forgetAfterFrames)")
        }
        let dx = end.x - start.x, dy = end.y - start.y
        let magnitude = (dx * dx + dy * dy).squareRoot()
        guard magnitude > 0, magnitude.isFinite else {
            throw AnalyticsError(
                .badInput, "line \(name): its two points must differ and be finite, got (\(start.x), \(start.y)) twice")
        }
        self.name = name
        self.start = start
        self.end = end
        self.anchors = anchors
        self.minimumCrossingFrames = minimumCrossingFrames
        self.forgetAfterFrames = forgetAfterFrames
        historyLength = max(2, minimumCrossingFrames + 1)
        let px = -(dy / magnitude), py = dx / magnitude
        limitStart = (start, Point(x: start.x + px, y: start.y + py))
        limitEnd = (end, Point(x: end.x - px, y: end.y - py))
    }

    /// Crossings to the "in" side.
    public var inCount: Int { inCountPerClass.values.reduce(0, +) }
    /// Crossings to the "out" side.
    public var outCount: Int { outCountPerClass.values.reduce(0, +) }

    /// Tracks that ended on the "in" side of where they were first seen, per class (their class at
    /// their last crossing).
    public var netInCountPerClass: [String: Int] { netCounts(sign: 1) }
    /// Tracks that ended on the "out" side of where they were first seen, per class.
    public var netOutCountPerClass: [String: Int] { netCounts(sign: -1) }

    private func netCounts(sign: Int) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (_, v) in net where v.count.signum() == sign { counts[v.className, default: 0] += 1 }
        return counts
    }

    /// The signed distance test: negative on the "in" side.
    private static func cross(_ p: Point, _ from: Point, _ to: Point) -> Double {
        (to.x - from.x) * (p.y - from.y) - (to.y - from.y) * (p.x - from.x)
    }

    /// Where `box` is: nil when an anchor is beyond the segment's ends or the anchors disagree,
    /// else whether it is on the "in" side.
    public func side(of box: Box) -> Bool? {
        var anyIn = false, anyOut = false
        for anchor in anchors {
            let p = anchor.point(in: box)
            guard (Self.cross(p, limitStart.from, limitStart.to) > 0) == (Self.cross(p, limitEnd.from, limitEnd.to) > 0)
            else { return nil }
            if Self.cross(p, start, end) < 0 { anyIn = true } else { anyOut = true }
        }
        return anyIn && anyOut ? nil : anyIn
    }

    /// Takes one frame's objects (every frame, empty ones too: absence ages the tracks' state) and
    /// returns the crossings counted in it, in the objects' order.
    public mutating func update(_ objects: [ZoneObject], timestampMs: Int) -> [ZoneEvent] {
        let present = Set(objects.compactMap(\.trackingID))
        for key in Array(history.keys) {
            if present.contains(key) {
                absentFrames[key] = nil
            } else {
                let absent = (absentFrames[key] ?? 0) + 1
                if absent >= forgetAfterFrames {
                    history[key] = nil
                    confirmedSide[key] = nil
                    absentFrames[key] = nil
                } else {
                    absentFrames[key] = absent
                }
            }
        }
        var events: [ZoneEvent] = []
        for object in objects {
            guard let key = object.trackingID, let state = side(of: object.box) else { continue }
            var h = history[key] ?? []
            h.append(state)
            if h.count > historyLength { h.removeFirst(h.count - historyLength) }
            history[key] = h
            let confirmed = confirmedSide[key] ?? state
            confirmedSide[key] = confirmed
            guard h.count == historyLength, state != confirmed, h.dropFirst().allSatisfy({ $0 == state }) else {
                continue
            }
            confirmedSide[key] = state
            if state {
                inCountPerClass[object.className, default: 0] += 1
            } else {
                outCountPerClass[object.className, default: 0] += 1
            }
            net[key] = ((net[key]?.count ?? 0) + (state ? 1 : -1), object.className)
            events.append(
                ZoneEvent(
                    kind: state ? .crossedIn : .crossedOut, name: name, trackingID: key, className: object.className,
                    timestampMs: timestampMs))
        }
        return events
    }
}
