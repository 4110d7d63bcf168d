import Foundation
import Testing
import VisionPipeline
import VisionServer
import VisionTestSupport

/// YOLO models on the command line: `detect` gives Ultralytics' predictions (its defaults: OpenCV's
/// JPEG pixels, conf 0.25), `--head`/`--iou`/`--agnostic-nms`, `metadata` writing a label file and
/// a threshold, `inspect` naming the decoder, `track --localizer` with a YOLO model.
@Suite("YOLO on the command line", .enabled(if: TestAssets.shouldRun))
struct YOLOCommandTests {
    static let fixtures = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/yolo")
    static let v8 = fixtures.appendingPathComponent("yolov8t_float32.tflite").path
    static let photos = ["dog.jpg", "person.jpg", "pets.jpg", "bird.png"].map(TestAssets.image)

    /// (corners, score, class name) of each detection of each record, by file name.
    static func detections(_ stdout: String) throws -> [String: [([Int], Double, String)]] {
        var out: [String: [([Int], Double, String)]] = [:]
        for line in stdout.split(separator: "\n") where line.contains("\"source\"") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let source = try #require(record["source"] as? String)
            out[(source as NSString).lastPathComponent] = (record["detections"] as? [[String: Any]] ?? []).map { d in
                let b = d["boundingBox"] as? [String: Int] ?? [:]
                let x = b["originX"] ?? 0, y = b["originY"] ?? 0
                let c = (d["categories"] as? [[String: Any]])?.first
                return (
                    [x, y, x + (b["width"] ?? 0), y + (b["height"] ?? 0)], c?["score"] as? Double ?? -1,
                    c?["categoryName"] as? String ?? ""
                )
            }
        }
        return out
    }

    static func golden(_ model: String) throws -> (names: [String: String], photos: [String: [[String: Any]]]) {
        let golden = try Goldens.dictionary("ultralytics_yolo.json")
        let models = try #require(golden["models"] as? [String: [String: [[String: Any]]]])
        return (try #require(golden["names"] as? [String: String]), try #require(models[model]))
    }

    @Test(
        """
        detect with no options = Ultralytics' predict; a written threshold and --max-results apply; --agnostic-nms, \
        --iou
        """
    )
    func detect() throws {
        let run = try AppProcess.run(["detect", "--model", Self.v8, "--jsonl", "-"] + Self.photos)
        #expect(run.status == 0, "\(run.stderr)")
        let found = try Self.detections(run.stdout)
        let (names, golden) = try Self.golden("yolov8t_float32.tflite")
        for photo in Self.photos.map({ ($0 as NSString).lastPathComponent }) {
            let expected = try #require(golden[photo]), ours = try #require(found[photo])
            #expect(ours.count == expected.count, "\(photo)")
            for e in expected {
                let box = (e["box"] as? [Double]) ?? [], score = e["score"] as? Double ?? 0,
                    name = names[String(e["class"] as? Int ?? -1)] ?? ""
                #expect(
                    ours.contains { o in
                        o.2 == name && abs(o.1 - score) <= 1e-3
                            && zip(o.0, box).allSatisfy { abs(Double($0) - $1) <= 1 }
                    },
                    "\(photo): \(e) not in \(ours)")
            }
        }
        // The metadata command's threshold becomes the model's default; --max-results caps.
        let dir = try AppProcess.folder("yolo-meta")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let written = dir + "/v8.tflite"
        let meta = try AppProcess.run(["metadata", "--model", Self.v8, "--score-threshold", "0.5", "--output", written])
        #expect(
            meta.status == 0 && meta.stdout.contains("13 labels from labels.txt, score threshold 0.5"),
            "\(meta.stdout)\(meta.stderr)")
        let thresholded = try Self.detections(
            try AppProcess.run(["detect", "--model", written, "--jsonl", "-"] + Self.photos).stdout)
        for (photo, boxes) in found {
            #expect(thresholded[photo]?.map(\.1) == boxes.map(\.1).filter { $0 >= 0.5 }, "\(photo)")
        }
        let one = try Self.detections(
            try AppProcess.run(["detect", "--model", Self.v8, "--max-results", "1", "--jsonl", "-", Self.photos[1]])
                .stdout)
        #expect(one["person.jpg"]?.count == 1 && one["person.jpg"]?.first?.1 == found["person.jpg"]?.map(\.1).max())
        // person.jpg: a horse box and a dog box overlap; class-agnostic NMS (and a low IoU) keep fewer.
        let agnostic = try Self.detections(
            try AppProcess.run([
                "detect", "--model", Self.v8, "--agnostic-nms", "--iou", "0.3", "--jsonl", "-", Self.photos[1],
            ]).stdout)
        let kept = try #require(agnostic["person.jpg"])
        #expect(
            kept.count < (found["person.jpg"]?.count ?? 0)
                && kept.allSatisfy { k in found["person.jpg"]?.contains { $0.1 == k.1 } == true })
    }

    @Test("--head that does not fit the output: the refusal names the shapes and the option; inspect names the decoder")
    func headAndInspect() throws {
        let wrong = try AppProcess.run(["detect", "--model", Self.v8, "--head", "yolo-e2e", Self.photos[0]])
        #expect(wrong.status != 0)
        let refusal = """
            No YOLO decoder fits this model's outputs ([1, 17, 756] FLOAT32): [1, K, 6] needs 6 columns. A YOLO \
            detector has one output, [1, 4+C, N] or [1, N, 4+C] with N = 756 anchors for the 192×192 input, or \
            [1, K, 6] final detections; if it is one of these, name its layout in the detector's YOLO options (head).
            If the output is a YOLO head the rules cannot tell, name it: --head yolo|yolo-transposed|yolo-e2e

            """
        #expect(wrong.stderr.contains(refusal), "\(wrong.stderr)")
        let inspect = try AppProcess.run(["inspect", Self.v8])
        #expect(
            inspect.stdout.contains(
                "  decoder    chosen because last dimension 756 = the anchors of strides 8, 16, 32 over the 192×192 "
                    + "input, 13 class names in the metadata"
            ))
        #expect(
            inspect.stdout.contains("  ✓ MediaPipe ObjectDetector (YOLO decoder)")
                && inspect.stdout.contains("  ✓ ML Kit ObjectDetector localizer (track --localizer)"))
    }

    @Test("track --localizer with a YOLO model: ML Kit's class-agnostic objects from its boxes")
    func localizer() throws {
        let run = try AppProcess.run([
            "track", "--model", TestAssets.model("mobilenet_v2_1.0_224_quant.tflite"), "--localizer", Self.v8,
            "--jsonl", "-", Self.photos[2],
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").first { $0.contains("\"source\"") })
        let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let objects = try #require(record["objects"] as? [[String: Any]])
        // pets.jpg: Ultralytics finds two dogs; the localizer gives both boxes (ML Kit's frame is the upright picture).
        #expect(objects.count == 2, "\(objects)")
    }
}
