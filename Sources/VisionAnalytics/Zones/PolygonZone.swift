/// A polygonal zone: which objects are in it (by their anchor points), how many are in it now and
/// at most, who visited it and for how long.
///
/// An object is in the zone when its anchors (all of them by default, any one with
/// `requireAllAnchors: false`) lie inside the polygon or on its edges — a geometric test on the
/// anchor as computed, where supervision's `PolygonZone` rounds the anchor to a whole pixel and
/// looks it up in a rasterized mask; the two agree except for anchors within half a pixel of an edge.
///
/// Occupancy counts every object inside in the current frame (confirmed tracks or not, as
/// supervision's `current_count`). Visits belong to tracking IDs: a visit starts on the first
/// frame a track is seen inside (an ``ZoneEvent/Kind/entered`` event) and ends on the first frame
/// it is seen outside (``ZoneEvent/Kind/exited``, with the dwell time); frames where the track is
/// not reported (occluded, missed) neither end nor extend it. Dwell is the time from the first to
/// the last frame seen inside.
public struct PolygonZone: Sendable {
    /// The zone's name, as reports show it.
    public let name: String
    /// The vertices in pixels, in order (closed implicitly).
    public let polygon: [Point]
    /// The box points tested against the polygon.
    public let anchors: [BoxAnchor]
    /// Whether every anchor must be inside (else any one).
    public let requireAllAnchors: Bool

    /// One stay of a track in the zone.
    public struct Visit: Sendable, Hashable {
        /// The object's tracking ID.
        public var trackingID: Int
        /// The class on entering.
        public var className: String
        /// When it entered, in milliseconds.
        public var enteredMs: Int
        /// The last frame seen inside.
        public var lastInsideMs: Int
        /// When it was first seen outside again (nil: still inside, or never seen again).
        public var exitedMs: Int?
        /// Time from the first to the last frame seen inside.
        public var dwellMs: Int { lastInsideMs - enteredMs }
    }

    private var open: [Int: Visit] = [:]
    private var closed: [Visit] = []
    /// Objects inside in the last frame, per class.
    public private(set) var occupancyPerClass: [String: Int] = [:]
    /// The most objects inside in one frame so far.
    public private(set) var maxOccupancy = 0

    /// A zone with at least three vertices enclosing an area; throws ``AnalyticsError`` otherwise.
    public init(
        name: String, polygon: [Point], anchors: [BoxAnchor] = [.bottomCenter], requireAllAnchors: Bool = true
    ) throws {
        guard polygon.count >= 3 else {
            throw AnalyticsError(.badInput, "zone \(name): a polygon needs at least 3 points, got \(polygon.count)")
        }
        guard polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw AnalyticsError(.badInput, "zone \(name): points must be finite")
        }
        var twiceArea = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            twiceArea += a.x * b.y - b.x * a.y
        }
        guard twiceArea != 0 else {
            throw AnalyticsError(.badInput, "zone \(name): the polygon encloses no area (its points are on one line)")
        }
        guard !anchors.isEmpty else { throw AnalyticsError(.badInput, "zone \(name): give at least one anchor") }
        self.name = name
        self.polygon = polygon
        self.anchors = anchors
        self.requireAllAnchors = requireAllAnchors
    }

    /// Whether `point` is inside the polygon or on an edge (even-odd rule).
    public func contains(_ point: Point) -> Bool {
        var inside = false
        var j = polygon.count - 1
        for i in polygon.indices {
            let a = polygon[i], b = polygon[j]
            j = i
            // On the edge a–b: collinear and within its bounding box.
            let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
            if cross == 0, point.x >= min(a.x, b.x), point.x <= max(a.x, b.x), point.y >= min(a.y, b.y),
                point.y <= max(a.y, b.y)
            {
                return true
            }
            if (a.y > point.y) != (b.y > point.y) {
                let x = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if point.x < x { inside.toggle() }
            }
        }
        return inside
    }

    /// Whether an object with `box` is in the zone.
    public func contains(_ box: Box) -> Bool {
        requireAllAnchors
            ? anchors.allSatisfy { contains($0.point(in: box)) } : anchors.contains { contains($0.point(in: box)) }
    }

    /// Objects inside in the last frame.
    public var occupancy: Int { occupancyPerClass.values.reduce(0, +) }

    /// Every visit so far, finished ones first then the ones still open, each in start order.
    public var visits: [Visit] {
        closed + open.values.sorted { ($0.enteredMs, $0.trackingID) < ($1.enteredMs, $1.trackingID) }
    }

    /// Distinct tracks that entered.
    public var visitors: Int { Set(closed.map(\.trackingID)).union(open.keys).count }

    /// Distinct tracks that entered, per class (the class of their first entry: a track counts once).
    public var visitorsPerClass: [String: Int] {
        var first: [Int: (enteredMs: Int, className: String)] = [:]
        for v in visits where (first[v.trackingID]?.enteredMs ?? Int.max) > v.enteredMs {
            first[v.trackingID] = (v.enteredMs, v.className)
        }
        var counts: [String: Int] = [:]
        for (_, v) in first { counts[v.className, default: 0] += 1 }
        return counts
    }

    /// Takes one frame's objects; returns which of them are inside (in order) and the entries and
    /// exits of this frame.
    public mutating func update(_ objects: [ZoneObject], timestampMs: Int) -> (inside: [Bool], events: [ZoneEvent]) {
        var inside: [Bool] = []
        inside.reserveCapacity(objects.count)
        var events: [ZoneEvent] = []
        var perClass: [String: Int] = [:]
        for object in objects {
            let isIn = contains(object.box)
            inside.append(isIn)
            if isIn { perClass[object.className, default: 0] += 1 }
            guard let id = object.trackingID else { continue }
            if isIn {
                if open[id] != nil {
                    open[id]?.lastInsideMs = timestampMs
                } else {
                    open[id] = Visit(
                        trackingID: id, className: object.className, enteredMs: timestampMs, lastInsideMs: timestampMs)
                    events.append(
                        ZoneEvent(
                            kind: .entered, name: name, trackingID: id, className: object.className,
                            timestampMs: timestampMs))
                }
            } else if var visit = open.removeValue(forKey: id) {
                visit.exitedMs = timestampMs
                closed.append(visit)
                events.append(
                    ZoneEvent(
                        kind: .exited, name: name, trackingID: id, className: object.className,
                        timestampMs: timestampMs, dwellMs: visit.dwellMs))
            }
        }
        occupancyPerClass = perClass
        maxOccupancy = max(maxOccupancy, inside.filter { $0 }.count)
        return (inside, events)
    }
}
