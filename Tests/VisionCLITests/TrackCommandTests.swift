import Foundation
import Imaging
import Testing
import Video
import VisionPipeline
import VisionServer
import VisionTestSupport

@testable import VisionCLI

/// `vision-tasks track` end to end: a clip written here, JSON lines in the documented schema,
/// the annotated video, and the errors.
@Suite("vision-tasks track", .enabled(if: TestAssets.shouldRun))
struct TrackCommandTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString)-\(name)").path
    }

    /// 12 frames of pets.jpg at 25 fps.
    static func clip() throws -> String {
        let pets = try ImageDecoder.decode(contentsOfFile: TestAssets.image("pets.jpg")).bitmap.convertedToRGB()
        let path = temporary("pets.mp4")
        let writer = try VideoWriter(
            path: path, width: pets.width, height: pets.height, framesPerSecond: 25, quality: 12)
        for i in 0..<12 { try writer.write(pets, timestampMs: i * 40) }
        try writer.finish()
        return path
    }

    static func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test(
        "one JSON object per decoded frame: frame, timestampMs, objects with frame, trackingID, labels; annotated video"
    )
    func jsonLines() throws {
        let clip = try Self.clip()
        let out = Self.temporary("out.jsonl"), dets = Self.temporary("dets.jsonl"),
            annotated = Self.temporary("annotated.mp4")
        defer { for p in [clip, out, dets, annotated] { try? FileManager.default.removeItem(atPath: p) } }
        let run = InProcessCLI.run([
            "track", "--model", TestAssets.model("mobilenet_v2_1.0_224_quant.tflite"), clip,
            "--jsonl", out, "--detections-jsonl", dets, "--output", annotated, "--max-labels", "2", "--quiet",
        ])
        #expect(run.status == 0)
        // --quiet, and every result goes to a file: nothing on either stream.
        #expect(run.output.isEmpty && run.error.isEmpty, "\(run.output)\(run.error)")
        let frames = try Self.lines(out)
        #expect(
            frames.allSatisfy {
                $0["source"] as? String == clip && $0["width"] as? Int == 512 && $0["height"] as? Int == 430
            })
        #expect(frames.map { $0["frame"] as? Int } == Array(1...12))
        #expect(frames.map { $0["timestampMs"] as? Int } == (0..<12).map { $0 * 40 })
        #expect((frames[0]["objects"] as? [Any])?.isEmpty == true && (frames[1]["objects"] as? [Any])?.isEmpty == true)
        let last = try #require(frames[11]["objects"] as? [[String: Any]])
        #expect(last.map { $0["trackingID"] as? Int } == [0, 1])
        let box = try #require(last[0]["frame"] as? [String: Double])
        #expect(Set(box.keys) == ["originX", "originY", "width", "height"] && (box["width"] ?? 0) > 50)
        let labels = try #require(last[0]["labels"] as? [[String: Any]])
        #expect(
            labels.count == 2 && labels[0]["text"] as? String == "Italian greyhound"
                && labels[0]["index"] as? Int == 172)
        #expect((labels[0]["confidence"] as? Double ?? 0) > 0.5)
        let detections = try Self.lines(dets)
        #expect(
            detections.count == 12
                && ((detections[0]["detections"] as? [[String: Any]])?.first?["score"] as? Double ?? 0) > 0.7)
        let reader = try VideoReader(path: annotated)
        var count = 0
        var lastFrame: VideoFrame?
        while let f = try reader.nextFrame() { count += 1; lastFrame = f }
        #expect(count == 12 && reader.info.width == 512 && reader.info.height == 430)
        // The first track's box is drawn in the palette's colour 0 on its left edge.
        if let f = lastFrame, let x = box["originX"], let y = box["originY"], let h = box["height"] {
            let (r, g, b) = f.bitmap.rgb(x: Int(x) + 1, y: Int(y + h / 2))
            let expected = Canvas.Color.forIndex(0)
            #expect(
                abs(Int(r) - Int(expected.r)) < 40 && abs(Int(g) - Int(expected.g)) < 40
                    && abs(Int(b) - Int(expected.b)) < 40)
        }
    }

    @Test("errors: usage (64), a missing video (5), a damaged video (frames before the damage kept, then 3)")
    func errors() throws {
        let bare = InProcessCLI.run(["track"])
        #expect(bare.status == 64 && bare.output.isEmpty)
        #expect(
            bare.error
                == InProcessCLI.usageError(
                    "track",
                    "track needs inputs: pictures, folders, videos, globs or - (paths on stdin); or --live SOURCE"))
        let typo = InProcessCLI.run(["track", "a.mp4", "--trak-iou", "0.3"])
        #expect(typo.status == 64 && typo.output.isEmpty)
        #expect(
            typo.error
                == InProcessCLI.usageError("track", "track: unknown option --trak-iou — did you mean --track-iou?"))
        let iou = InProcessCLI.run(["track", "a.mp4", "--track-iou", "1.5"])
        #expect(iou.status == 64 && iou.output.isEmpty)
        #expect(iou.error == InProcessCLI.usageError("track", "--track-iou must be between 0 and 1, got 1.5"))
        let objects = InProcessCLI.run(["track", "a.mp4", "--max-objects", "0"])
        #expect(objects.status == 64 && objects.output.isEmpty)
        #expect(objects.error == InProcessCLI.usageError("track", "--max-objects must be between 1 and 1000, got 0"))
        let missing = InProcessCLI.run(["track", "/nonexistent/clip.mp4", "--quiet"])
        #expect(missing.status == 5 && missing.output.isEmpty)
        #expect(
            missing.errorLines == [
                "vision-tasks: /nonexistent/clip.mp4: Cannot read video /nonexistent/clip.mp4: "
                    + "cannot open the file as a video: No such file or directory."
            ])
        let noModel = InProcessCLI.run([
            "track", TestAssets.image("car-detection.mp4"), "--model", "/nonexistent/m.tflite",
        ])
        #expect(noModel.status == 5 && noModel.output.isEmpty)
        #expect(
            noModel.errorLines == [
                "vision-tasks: error 5 (com.google.mlkit): Failed to initialize detector. "
                    + "Unable to open file at /nonexistent/m.tflite"
            ])
        let data = try Data(contentsOf: URL(fileURLWithPath: TestAssets.image("car-detection.mp4")))
        let cut = Self.temporary("cut.mp4"), out = Self.temporary("cut.jsonl")
        defer { for p in [cut, out] { try? FileManager.default.removeItem(atPath: p) } }
        try data.prefix(data.count / 5).write(to: URL(fileURLWithPath: cut))
        let damaged = InProcessCLI.run(["track", cut, "--jsonl", out, "--quiet"])
        #expect(damaged.status == 3)
        let records = try Self.lines(out)
        let frames = records.filter { $0["frame"] != nil }
        // The records went to the file; the damage, after the last frame decoded, is also reported.
        #expect(damaged.output.isEmpty)
        #expect(
            damaged.errorLines == [
                "vision-tasks: \(cut): Video \(cut), after frame \(frames.count): the file is truncated: "
                    + "its index has frames past the end of the file (\(data.count / 5) bytes)."
            ])
        #expect(frames.count > 20 && frames.count < 377)
        #expect(frames.last?["frame"] as? Int == frames.count)
        // The damage is a record of its own, with the video layer's error.
        let error = try #require(records.last?["error"] as? [String: Any])
        #expect(
            records.last?["source"] as? String == cut && error["code"] as? Int == 3
                && error["domain"] as? String == "vision-tasks.video")
    }
}
