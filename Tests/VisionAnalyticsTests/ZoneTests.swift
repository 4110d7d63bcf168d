import Foundation
import Testing
import VisionAnalytics
import VisionTestSupport

/// LineZone and PolygonZone against supervision 0.30.9 fed the same seeded tracks
/// (Tests/Fixtures/eval/zone_tracks.json → Tests/Goldens/supervision_zones.json, made by
/// scripts/eval/zone_goldens.py): lines frame by frame and object by object; zones likewise, except
/// where supervision's whole-pixel mask and our geometric test may differ (an anchor within a pixel
/// of an edge), each such case checked to be one.
@Suite("Zones and lines")
struct ZoneTests {
    struct Fixture {
        var frames: [(timestampMs: Int, objects: [ZoneObject])]
    }

    static func fixture() throws -> Fixture {
        let url = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/eval/zone_tracks.json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let frames = try #require(root["frames"] as? [[String: Any]])
        return Fixture(
            frames: try frames.map { f in
                let objects = try #require(f["objects"] as? [[String: Any]])
                return (
                    try #require(f["timestampMs"] as? Int),
                    try objects.map { o in
                        ZoneObject(
                            trackingID: o["id"] as? Int,
                            box: Box(
                                x: try #require(o["x"] as? Double), y: try #require(o["y"] as? Double),
                                width: try #require(o["width"] as? Double), height: try #require(o["height"] as? Double)
                            ),
                            className: try #require(o["class"] as? String))
                    }
                )
            })
    }

    static func point(_ any: Any?) throws -> Point {
        let xy = try #require(any as? [Double])
        return Point(x: xy[0], y: xy[1])
    }

    static func anchors(_ any: Any?) throws -> [BoxAnchor] {
        try #require(any as? [String]).map { try #require(BoxAnchor(rawValue: $0)) }
    }

    @Test("every line's crossings, frame by frame and per class, equal supervision's LineZone")
    func linesEqualSupervision() throws {
        let fixture = try Self.fixture()
        let golden = try Goldens.dictionary("supervision_zones.json")
        let lines = try #require(golden["lines"] as? [[String: Any]])
        #expect(lines.count == 5)
        for spec in lines {
            let name = try #require(spec["name"] as? String)
            let frames = try #require(spec["minimumCrossingFrames"] as? Int)
            var line = try LineZone(
                name: name, start: Self.point(spec["start"]), end: Self.point(spec["end"]),
                anchors: Self.anchors(spec["anchors"]),
                minimumCrossingFrames: frames, forgetAfterFrames: max(2, frames + 1))
            let perFrame = try #require(spec["frames"] as? [[String: [Int]]])
            #expect(perFrame.count == fixture.frames.count)
            var crossings = 0
            for (k, frame) in fixture.frames.enumerated() {
                let events = line.update(frame.objects, timestampMs: frame.timestampMs)
                let index = { (e: ZoneEvent) in frame.objects.firstIndex { $0.trackingID == e.trackingID } ?? -1 }
                let ins = events.filter { $0.kind == .crossedIn }.map(index),
                    outs = events.filter { $0.kind == .crossedOut }.map(index)
                #expect(
                    ins == perFrame[k]["in"] && outs == perFrame[k]["out"],
                    "\(name) frame \(k + 1): \(ins)/\(outs) vs \(perFrame[k])")
                crossings += events.count
            }
            #expect(line.inCountPerClass == spec["inPerClass"] as? [String: Int], "\(name)")
            #expect(line.outCountPerClass == spec["outPerClass"] as? [String: Int], "\(name)")
            #expect(crossings == line.inCount + line.outCount && crossings > 0)
        }
    }

    /// Distance from `p` to the polygon's nearest edge.
    static func edgeDistance(_ p: Point, _ polygon: [Point]) -> Double {
        var best = Double.infinity
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            let dx = b.x - a.x, dy = b.y - a.y
            let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
            best = min(best, hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy)))
        }
        return best
    }

    @Test("zone membership and occupancy equal supervision's PolygonZone but for anchors within a pixel of an edge")
    func zonesEqualSupervision() throws {
        let fixture = try Self.fixture()
        let golden = try Goldens.dictionary("supervision_zones.json")
        let zones = try #require(golden["zones"] as? [[String: Any]])
        #expect(zones.count == 3)
        var explained = 0, agreed = 0
        for spec in zones {
            let name = try #require(spec["name"] as? String)
            let polygon = try #require(spec["polygon"] as? [[Double]]).map { Point(x: $0[0], y: $0[1]) }
            var zone = try PolygonZone(
                name: name, polygon: polygon, anchors: Self.anchors(spec["anchors"]),
                requireAllAnchors: try #require(spec["requireAll"] as? Bool))
            let inside = try #require(spec["inside"] as? [[Bool]]), counts = try #require(spec["count"] as? [Int])
            for (k, frame) in fixture.frames.enumerated() {
                let ours = zone.update(frame.objects, timestampMs: frame.timestampMs).inside
                var expectedCount = counts[k]
                for (i, object) in frame.objects.enumerated() where ours[i] != inside[k][i] {
                    let near =
                        zone.anchors.map { Self.edgeDistance($0.point(in: object.box), polygon) }.min() ?? .infinity
                    #expect(
                        near <= 1,
                        """
                        \(name) frame \(k + 1) object \(i): ours \(ours[i]), supervision \(inside[k][i]), \(near) px \
                        from an edge
                        """
                    )
                    expectedCount += ours[i] ? 1 : -1
                    explained += 1
                }
                agreed += zip(ours, inside[k]).filter { $0 == $1 }.count
                #expect(zone.occupancy == expectedCount, "\(name) frame \(k + 1)")
            }
        }
        #expect(agreed > 1500 && explained <= agreed / 100, "\(agreed) agreed, \(explained) explained differences")
    }

    @Test("a box jittering on a line counts every crossing but once net; visits and dwell by hand")
    func byHand() throws {
        var line = try LineZone(name: "door", start: Point(x: 100, y: 0), end: Point(x: 100, y: 200))
        var zone = try PolygonZone(
            name: "mat",
            polygon: [Point(x: 90, y: 0), Point(x: 110, y: 0), Point(x: 110, y: 200), Point(x: 90, y: 200)])
        // Bottom-centre x: 95, 101, 99, 102, 104 (in, out, in: net +1), then gone, then seen at 120 (outside the mat).
        let xs: [Double?] = [95, 101, 99, 102, 104, nil, 120]
        var events: [ZoneEvent] = []
        for (k, x) in xs.enumerated() {
            let objects =
                x.map {
                    [ZoneObject(trackingID: 7, box: Box(x: $0 - 10, y: 50, width: 20, height: 40), className: "cat")]
                } ?? []
            events += line.update(objects, timestampMs: k * 100)
            events += zone.update(objects, timestampMs: k * 100).events
        }
        #expect(events.map(\.kind) == [.entered, .crossedIn, .crossedOut, .crossedIn, .exited])
        #expect(line.inCount == 2 && line.outCount == 1)
        #expect(line.netInCountPerClass == ["cat": 1] && line.netOutCountPerClass.isEmpty)
        #expect(zone.visits.count == 1 && zone.visits[0].dwellMs == 400 && zone.visits[0].exitedMs == 600)
        #expect(
            events.last?.dwellMs == 400 && zone.visitorsPerClass == ["cat": 1] && zone.maxOccupancy == 1
                && zone.occupancy == 0)
        // With 3 frames required the excursions 101 and 99 are noise; 102, 104 and one more count once.
        var slow = try LineZone(
            name: "slow", start: Point(x: 100, y: 0), end: Point(x: 100, y: 200), minimumCrossingFrames: 3)
        var slowEvents: [ZoneEvent] = []
        for (k, x) in [95.0, 101, 99, 102, 104, 105, 106].enumerated() {
            slowEvents += slow.update(
                [ZoneObject(trackingID: 1, box: Box(x: x - 10, y: 50, width: 20, height: 40), className: "cat")],
                timestampMs: k)
        }
        #expect(slowEvents.map(\.timestampMs) == [5] && slowEvents.first?.kind == .crossedIn)
        // A track that comes back into a zone under another class is still one visitor (its first class).
        var mat = try PolygonZone(
            name: "mat", polygon: [Point(x: 0, y: 0), Point(x: 50, y: 0), Point(x: 50, y: 50), Point(x: 0, y: 50)])
        for (k, (x, label)) in [(10.0, "cat"), (90, "cat"), (10, "dog"), (12, "dog")].enumerated() {
            _ = mat.update(
                [ZoneObject(trackingID: 4, box: Box(x: x, y: 10, width: 10, height: 10), className: label)],
                timestampMs: k * 10)
        }
        #expect(
            mat.visits.count == 2 && mat.visitorsPerClass == ["cat": 1] && mat.visits.last?.dwellMs == 10
                && mat.visits.last?.exitedMs == nil)
        // Crossing while hidden for 4 frames: counted when remembered (our default), not when
        // forgotten after 2 missing frames (supervision's rule).
        for (forget, expected) in [(300, 1), (2, 0)] {
            var hidden = try LineZone(
                name: "hidden", start: Point(x: 100, y: 0), end: Point(x: 100, y: 200), forgetAfterFrames: forget)
            var count = 0
            for (k, x) in [90.0, 92, nil, nil, nil, nil, 108, 110].enumerated() {
                let objects =
                    x.map {
                        [
                            ZoneObject(
                                trackingID: 3, box: Box(x: $0 - 10, y: 50, width: 20, height: 40), className: "cat")
                        ]
                    } ?? []
                count += hidden.update(objects, timestampMs: k).count
            }
            #expect(count == expected, "forget after \(forget)")
        }
    }

    @Test("bad lines, zones and names are refused with what to change")
    func errors() {
        func message(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch let e as AnalyticsError { return e.message } catch { return "\(error)" }
        }
        #expect(
            message { _ = try LineZone(name: "a", start: Point(x: 1, y: 1), end: Point(x: 1, y: 1)) }
                == "line a: its two points must differ and be finite, got (1.0, 1.0) twice")
        #expect(
            message { _ = try LineZone(name: "a", start: Point(x: 0, y: 0), end: Point(x: 1, y: 1), anchors: []) }
                == "line a: give at least one anchor")
        #expect(
            message { _ = try PolygonZone(name: "z", polygon: [Point(x: 0, y: 0), Point(x: 1, y: 1)]) }
                == "zone z: a polygon needs at least 3 points, got 2")
        #expect(
            message {
                _ = try PolygonZone(name: "z", polygon: [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 2)])
            }
                == "zone z: the polygon encloses no area (its points are on one line)")
        #expect(
            message {
                _ = try ZoneCounter(
                    lines: [LineZone(name: "x", start: Point(x: 0, y: 0), end: Point(x: 1, y: 1))],
                    zones: [PolygonZone(name: "x", polygon: [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1)])])
            } == "two lines or zones are named 'x': give each its own name")
    }
}
