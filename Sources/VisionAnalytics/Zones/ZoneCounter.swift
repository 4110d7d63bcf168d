/// Lines and zones over one video's tracked objects, fed frame by frame: the crossing and
/// entry/exit events of each frame, which zones each object is in, and the running counts kept by
/// each ``LineZone`` and ``PolygonZone``.
///
/// ```swift
/// var counter = try ZoneCounter(
///     lines: [LineZone(name: "door", start: Point(x: 320, y: 0), end: Point(x: 320, y: 360))],
/// zones: [PolygonZone(name: "desk", polygon: [Point(x: 0, y: 200), Point(x: 200, y: 200), Point(x: 200, y: 360),
/// Point(x: 0, y: 360)])])
/// for frame in frames {
///     let objects = frame.tracks.map { ZoneObject(trackingID: $0.id, box: $0.box, className: $0.label) }
///     let update = counter.update(objects, timestampMs: frame.timestampMs)
///     for event in update.events { print(event.kind, event.name, event.trackingID) }
/// }
/// print(counter.lines[0].inCount, counter.zones[0].visits.map(\.dwellMs))
/// ```
public struct ZoneCounter: Sendable {
    /// The lines, with their counts so far.
    public private(set) var lines: [LineZone]
    /// The zones, with their occupancy and visits so far.
    public private(set) var zones: [PolygonZone]

    /// What one frame did.
    public struct Frame: Sendable {
        /// Line crossings first (in line order), then zone entries and exits (in zone order).
        public var events: [ZoneEvent]
        /// For each object of the frame, in order, the names of the zones it is in.
        public var zonesOfObject: [[String]]
    }

    /// Lines and zones with distinct names; throws ``AnalyticsError`` for a repeated name.
    public init(lines: [LineZone] = [], zones: [PolygonZone] = []) throws {
        var names = Set<String>()
        for name in lines.map(\.name) + zones.map(\.name) where !names.insert(name).inserted {
            throw AnalyticsError(.badInput, "two lines or zones are named '\(name)': give each its own name")
        }
        self.lines = lines
        self.zones = zones
    }

    /// Whether there is nothing to count.
    public var isEmpty: Bool { lines.isEmpty && zones.isEmpty }

    /// Takes one frame's objects (every frame, empty ones too).
    public mutating func update(_ objects: [ZoneObject], timestampMs: Int) -> Frame {
        var events: [ZoneEvent] = []
        for i in lines.indices { events += lines[i].update(objects, timestampMs: timestampMs) }
        var membership = [[String]](repeating: [], count: objects.count)
        for i in zones.indices {
            let (inside, zoneEvents) = zones[i].update(objects, timestampMs: timestampMs)
            events += zoneEvents
            for (k, isIn) in inside.enumerated() where isIn { membership[k].append(zones[i].name) }
        }
        return Frame(events: events, zonesOfObject: membership)
    }
}
