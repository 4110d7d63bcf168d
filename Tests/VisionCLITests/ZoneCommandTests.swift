import Foundation
import Imaging
import Testing
import Video
import VisionPipeline
import VisionServer
import VisionTestSupport

@testable import VisionCLI

/// `track --line/--zone` end to end on a clip where the pets walk right across a line, and
/// `vision-tasks zones` on existing tracks (supervision's counts on the seeded fixture, fractions,
/// MOT text), with their errors.
@Suite("vision-tasks track --line/--zone and zones", .enabled(if: TestAssets.shouldRun))
struct ZoneCommandTests {
    static func run(_ args: [String]) -> (status: Int32, stdout: String, stderr: String) { EvalCommandTests.run(args) }

    /// 16 frames of pets.jpg moving right by 14 px a frame (the uncovered left filled grey), 25 fps.
    static func walkingClip() throws -> String {
        let pets = try ImageDecoder.decode(contentsOfFile: TestAssets.image("pets.jpg")).bitmap.convertedToRGB()
        let path = TrackCommandTests.temporary("walk.mp4")
        let writer = try VideoWriter(
            path: path, width: pets.width, height: pets.height, framesPerSecond: 25, quality: 12)
        for i in 0..<16 {
            var pixels = [UInt8](repeating: 128, count: pets.pixels.count)
            let shift = i * 14, stride = pets.bytesPerRow
            for y in 0..<pets.height {
                for x in shift..<pets.width {
                    for c in 0..<3 { pixels[y * stride + x * 3 + c] = pets.pixels[y * stride + (x - shift) * 3 + c] }
                }
            }
            try writer.write(
                try Bitmap(width: pets.width, height: pets.height, format: .rgb8, pixels: pixels), timestampMs: i * 40)
        }
        try writer.finish()
        return path
    }

    @Test("track: crossings, zone membership, counts per frame, the video's summary and the drawn line")
    func track() throws {
        let clip = try Self.walkingClip()
        let out = TrackCommandTests.temporary("zones.jsonl"), annotated = TrackCommandTests.temporary("zones.mp4")
        defer { for p in [clip, out, annotated] { try? FileManager.default.removeItem(atPath: p) } }
        let zoneArgs = ["--line", "mid=256,0,256,430", "--zone", "left=0,0,0.5,0,0.5,1,0,1"]
        let r = Self.run(["track", clip, "--jsonl", out, "--output", annotated] + zoneArgs)
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try TrackCommandTests.lines(out)
        #expect(frames.count == 16)
        // The left dog (track 0) is seen from frame 3 with its bottom centre at x 215, in the zone; it
        // crosses x = 256 at frame 7 (bottom centre 267), leaving the zone; the right dog never crosses.
        var events: [String] = []
        for f in frames {
            for e in f["events"] as? [[String: Any]] ?? [] {
                events.append(
                    "\(f["frame"] ?? "") \(e["kind"] ?? "") \(e["line"] ?? e["zone"] ?? "") #\(e["trackingID"] ?? "") "
                        + "\(e["timestampMs"] ?? "") \(e["dwellMs"] ?? "-")"
                )
            }
        }
        #expect(events == ["3 enter left #0 80 -", "7 in mid #0 240 -", "7 exit left #0 240 120"])
        let zonesOfTrack0 = frames.map { f in
            ((f["objects"] as? [[String: Any]]) ?? []).first { $0["trackingID"] as? Int == 0 }.map {
                ($0["zones"] as? [String]) ?? ["?"]
            }
        }
        #expect(zonesOfTrack0[2...5].allSatisfy { $0 == ["left"] } && zonesOfTrack0[6...].allSatisfy { $0 == [] })
        let lastCounts = try #require(frames.last?["counts"] as? [String: Any])
        #expect((lastCounts["lines"] as? [[String: Any]])?.first?["in"] as? Int == 1)
        #expect((lastCounts["zones"] as? [[String: Any]])?.first?["occupancy"] as? Int == 0)
        #expect(r.stderr.contains("line mid: in 1 (object 1), out 0; objects that ended in 1, out 0"))
        #expect(
            r.stderr.contains(
                "zone left: 1 visitors (object 1), dwell mean 0.1 s, max 0.1 s; 0 inside at the end, at most 1"))
        // The line is drawn over the zone's edge in the first overlay colour, the zone's top edge in the second.
        let reader = try VideoReader(path: annotated)
        let first = try #require(try reader.nextFrame())
        func near(_ p: (UInt8, UInt8, UInt8), _ c: Canvas.Color) -> Bool {
            abs(Int(p.0) - Int(c.r)) < 60 && abs(Int(p.1) - Int(c.g)) < 60 && abs(Int(p.2) - Int(c.b)) < 60
        }
        #expect(near(first.bitmap.rgb(x: 256, y: 60), Canvas.Color.overlay[0]), "\(first.bitmap.rgb(x: 256, y: 60))")
        #expect(near(first.bitmap.rgb(x: 60, y: 0), Canvas.Color.overlay[1]), "\(first.bitmap.rgb(x: 60, y: 0))")
        // The --json document carries each video's summary: the crossing and the visit.
        let doc = Self.run(["track", clip, "--json", "--quiet"] + zoneArgs)
        let summary = try #require(try EvalCommandTests.json(doc.stdout)["summary"] as? [String: Any])
        let video = try #require((summary["zones"] as? [[String: Any]])?.first)
        let line = try #require((video["lines"] as? [[String: Any]])?.first),
            zone = try #require((video["zones"] as? [[String: Any]])?.first)
        #expect(
            video["source"] as? String == clip && line["netIn"] as? Int == 1
                && line["inPerClass"] as? [String: Int] == ["object": 1])
        let visits = try #require(zone["visits"] as? [[String: Any]])
        #expect(
            zone["visitors"] as? Int == 1 && zone["maxOccupancy"] as? Int == 1 && visits.count == 1
                && visits[0]["dwellMs"] as? Int == 120)
        // The same counts recounted offline from the records.
        let recount = Self.run(["zones", out, "--json"] + zoneArgs)
        let recounted = try #require((try EvalCommandTests.json(recount.stdout)["events"] as? [[String: Any]]))
        #expect(recounted.map { "\($0["frame"] ?? "") \($0["kind"] ?? "")" } == ["3 enter", "7 in", "7 exit"])
    }

    /// The seeded fixture's tracks as `track --jsonl` records.
    static func fixtureRecords() throws -> String {
        let url = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/eval/zone_tracks.json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var text = ""
        for f in try #require(root["frames"] as? [[String: Any]]) {
            let objects = (f["objects"] as? [[String: Any]] ?? []).map { o -> [String: Any] in
                [
                    "frame": [
                        "originX": o["x"] ?? 0, "originY": o["y"] ?? 0, "width": o["width"] ?? 0,
                        "height": o["height"] ?? 0,
                    ],
                    "trackingID": o["id"] ?? NSNull(),
                    "labels": [["text": o["class"] ?? "", "confidence": 0.9, "index": 0]],
                ]
            }
            let record: [String: Any] = [
                "source": "fixture.mp4", "frame": f["frame"] ?? 0, "timestampMs": f["timestampMs"] ?? 0, "width": 640,
                "height": 360, "objects": objects,
            ]
            text += String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self) + "\n"
        }
        let path = try EvalCommandTests.temporary("zone-fixture.jsonl")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    @Test("zones on records: supervision's counts per class with --forget-after 2; fractions = pixels; MOT text")
    func zones() throws {
        let records = try Self.fixtureRecords()
        let golden = try Goldens.dictionary("supervision_zones.json")
        let lines = try #require(golden["lines"] as? [[String: Any]])
        for spec in lines {
            let name = try #require(spec["name"] as? String)
            let a = try #require(spec["start"] as? [Double]), b = try #require(spec["end"] as? [Double])
            let frames = try #require(spec["minimumCrossingFrames"] as? Int)
            let anchors = try #require(spec["anchors"] as? [String]).joined(separator: ",")
            let r = Self.run([
                "zones", records, "--json", "--line", "\(name)=\(a[0]),\(a[1]),\(b[0]),\(b[1])", "--anchor", anchors,
                "--crossing-frames", "\(frames)",
                "--forget-after", "\(max(2, frames + 1))",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let line = try #require(
                ((try EvalCommandTests.json(r.stdout)["videos"] as? [[String: Any]])?.first?["lines"]
                    as? [[String: Any]])?.first)
            #expect(line["inPerClass"] as? [String: Int] == spec["inPerClass"] as? [String: Int], "\(name)")
            #expect(line["outPerClass"] as? [String: Int] == spec["outPerClass"] as? [String: Int], "\(name)")
        }
        // Fractions of the records' 640×360 frame = the same pixels.
        let pixels = Self.run([
            "zones", records, "--line", "door=320,0,320,360", "--zone", "desk=160,90,480,90,480,360,160,360",
        ])
        let fractions = Self.run([
            "zones", records, "--line", "door=0.5,0,0.5,1", "--zone", "desk=0.25,0.25,0.75,0.25,0.75,1,0.25,1",
        ])
        #expect(
            pixels.status == 0 && pixels.stdout == fractions.stdout && pixels.stdout.contains("line door: in "),
            "\(pixels.stdout)")
        // MOT text: all of class "object"; fractions need --size.
        let mot = try EvalCommandTests.temporary("zones-mot.txt")
        let root = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    contentsOf: TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/eval/zone_tracks.json")))
                as? [String: Any])
        var text = ""
        for f in try #require(root["frames"] as? [[String: Any]]) {
            for o in f["objects"] as? [[String: Any]] ?? [] {
                guard let id = o["id"] as? Int else { continue }
                text +=
                    "\(f["frame"] ?? 0),\(id),\(o["x"] ?? 0),\(o["y"] ?? 0),"
                    + "\(o["width"] ?? 0),\(o["height"] ?? 0),1,-1,-1,-1\n"
            }
        }
        try text.write(to: mot, atomically: true, encoding: .utf8)
        let fromMOT = Self.run(["zones", mot.path, "--line", "door=0.5,0,0.5,1", "--size", "640x360", "--json"])
        let door = try #require(
            ((try EvalCommandTests.json(fromMOT.stdout)["videos"] as? [[String: Any]])?.first?["lines"]
                as? [[String: Any]])?.first)
        let inTotal = (lines[0]["inPerClass"] as? [String: Int] ?? [:]).values.reduce(0, +)
        #expect(
            fromMOT.status == 0 && (door["inPerClass"] as? [String: Int])?.keys.sorted() == ["object"]
                && (door["in"] as? Int ?? 0) >= inTotal)
        let noSize = Self.run(["zones", mot.path, "--line", "door=0.5,0,0.5,1"])
        #expect(
            noSize.status == 64
                && noSize.stderr.contains("lines or zones in 0…1 fractions need the frame size: give --size WxH"))
    }

    @Test("bad lines, zones and anchors are usage errors (64) that say what to write")
    func errors() throws {
        let cases: [([String], String)] = [
            (
                ["track", "a.mp4", "--line", "door=1,2,3"],
                "--line door: a line takes two points, x1,y1,x2,y2 (4 numbers), got 3"
            ),
            (["track", "a.mp4", "--line", "1,2,3,4"], "--line 1,2,3,4: name it and give its points: NAME=x1,y1,x2,y2"),
            (
                ["track", "a.mp4", "--zone", "z=0,0,10,10"],
                "--zone z: a zone takes at least three points as x,y pairs, got 4 numbers"
            ),
            (
                ["track", "a.mp4", "--zone", "z=0,0,10,x,5,5"],
                "--zone z: 'x' is not a number (NAME=x1,y1,x2,y2,x3,y3,…)"
            ),
            (
                ["track", "a.mp4", "--line", "d=5,5,5,5"],
                "line d: its two points must differ and be finite, got (5.0, 5.0) twice"
            ),
            (
                ["track", "a.mp4", "--zone", "z=0,0,5,5,10,10"],
                "zone z: the polygon encloses no area (its points are on one line)"
            ),
            (
                ["track", "a.mp4", "--line", "a=0,0,9,9", "--zone", "a=0,0,9,0,9,9"],
                "two lines or zones are named 'a': give each its own name"
            ),
            (
                ["track", "a.mp4", "--line", "a=0,0,9,9", "--anchor", "bottom-centre"],
                "--anchor: unknown point 'bottom-centre' — did you mean bottom-center?"
            ),
            (
                ["track", "a.mp4", "--anchor", "center"],
                "--anchor, --crossing-frames and --forget-after apply to lines and zones"
            ),
            (
                ["zones", "t.jsonl"],
                "zones needs at least one --line NAME=x1,y1,x2,y2 or --zone NAME=x1,y1,x2,y2,x3,y3,…"
            ),
            (["zones", "/nonexistent.jsonl", "--line", "a=0,0,9,9"], "cannot read /nonexistent.jsonl"),
        ]
        for (args, message) in cases {
            let r = Self.run(args)
            #expect(r.status == 64 && r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }
}
