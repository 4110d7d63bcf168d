import Foundation
import Imaging
import Testing
import VisionCLI
import VisionPipeline
import VisionServer
import VisionTestSupport

/// `vision-tasks eval detect`, in-process: on the pycocotools fixture its COCO numbers are
/// pycocotools'; running the model gives what evaluating that model's own `detect --jsonl` records
/// gives; YOLO labels and the errors.
@Suite("vision-tasks eval detect")
struct EvalCommandTests {
    static let fixtures = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/eval")

    static func run(_ args: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let (console, captured) = Console.capturing()
        let status = VisionTasksCommand.main(args, console: console)
        return (status, captured.output, captured.error)
    }

    static func temporary(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vt-eval-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("--predictions records of the fixture's detections: the twelve numbers are pycocotools'")
    func pycocotools() throws {
        let gt = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.fixtures.appendingPathComponent("coco_gt.json"))) as? [String: Any])
        let dts = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.fixtures.appendingPathComponent("coco_dt.json"))) as? [[String: Any]])
        var files: [Int: String] = [:], names: [Int: String] = [:]
        for i in gt["images"] as? [[String: Any]] ?? [] { files[i["id"] as? Int ?? -1] = i["file_name"] as? String }
        for c in gt["categories"] as? [[String: Any]] ?? [] { names[c["id"] as? Int ?? -1] = c["name"] as? String }
        // One record per picture, as `detect --jsonl` writes them.
        var byImage: [Int: [[String: Any]]] = [:]
        for d in dts {
            let b = d["bbox"] as? [Double] ?? []
            let name = names[d["category_id"] as? Int ?? -1] ?? "not a dataset category"
            byImage[d["image_id"] as? Int ?? -1, default: []].append([
                "boundingBox": ["originX": b[0], "originY": b[1], "width": b[2], "height": b[3]],
                "categories": [["index": 0, "score": d["score"] as? Double ?? 0, "categoryName": name]],
            ])
        }
        var lines: [String] = []
        for (id, file) in files {
            let record: [String: Any] = ["source": "/somewhere/" + file, "detections": byImage[id] ?? []]
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self))
        }
        let predictions = try Self.temporary("predictions.jsonl")
        try lines.joined(separator: "\n").write(to: predictions, atomically: true, encoding: .utf8)
        let r = Self.run([
            "eval", "detect", "--annotations", Self.fixtures.appendingPathComponent("coco_gt.json").path,
            "--predictions", predictions.path, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let out = try Self.json(r.stdout)
        let stats = try #require(out["cocoStats"] as? [Double])
        let golden = try #require(try Goldens.dictionary("pycocotools_eval.json")["stats"] as? [Double])
        for (a, b) in zip(stats, golden) { #expect(abs(a - b) <= 1e-6) }
        #expect((out["unmapped"] as? [String: Int])?["not a dataset category"] == 1)
        // The text form prints pycocotools' lines.
        let text = Self.run([
            "eval", "detect", "--annotations", Self.fixtures.appendingPathComponent("coco_gt.json").path,
            "--predictions", predictions.path,
        ])
        #expect(
            text.stdout.contains(
                " Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = "
                    + "\(String(format: "%0.3f", golden[0]))"
            ))
        #expect(
            text.stdout.contains(
                " Average Recall     (AR) @[ IoU=0.50:0.95 | area= small | maxDets=100 ] = "
                    + "\(String(format: "%0.3f", golden[9]))"
            ))
    }

    @Test(
        "--model on the shared photos equals evaluating the same model's detect --jsonl records",
        .enabled(if: TestAssets.shouldRun))
    func modelRun() throws {
        // The fixture's ground truth on the real photos only.
        var gt = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.fixtures.appendingPathComponent("coco_gt.json"))) as? [String: Any])
        let real = (gt["images"] as? [[String: Any]] ?? []).filter { ($0["id"] as? Int ?? 0) < 20 }
        gt["images"] = real
        let annotations = try Self.temporary("photos_gt.json")
        try JSONSerialization.data(withJSONObject: gt).write(to: annotations)
        let model = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
        let photos = real.compactMap { $0["file_name"] as? String }.map { TestAssets.image($0) }
        let records = try Self.temporary("ssd.jsonl")
        let detect = Self.run(["detect", "--model", model, "--jsonl", records.path] + photos)
        #expect(detect.status == 0, "\(detect.stderr)")
        let byModel = Self.run([
            "eval", "detect", "--model", model, "--images", TestAssets.root + "/images", "--annotations",
            annotations.path, "--json",
        ])
        let byRecords = Self.run([
            "eval", "detect", "--annotations", annotations.path, "--predictions", records.path, "--json",
        ])
        #expect(byModel.status == 0 && byRecords.status == 0, "\(byModel.stderr) \(byRecords.stderr)")
        let a = try #require(try Self.json(byModel.stdout)["cocoStats"] as? [Double]),
            b = try #require(try Self.json(byRecords.stdout)["cocoStats"] as? [Double])
        #expect(a == b && a[0] > 0.2 && a[0] < 1)
    }

    @Test("YOLO labels with a names file; records of another run as ground truth; errors")
    func formats() throws {
        let folder = try Self.temporary("yolo")
        let images = folder.appendingPathComponent("images"), labels = folder.appendingPathComponent("labels")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: labels, withIntermediateDirectories: true)
        try Data(contentsOf: TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/jpeg/h2v2_420.jpg")).write(
            to: images.appendingPathComponent("a.jpg"))
        try "0 0.5 0.5 0.5 0.5\n".write(to: labels.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        let names = folder.appendingPathComponent("names.txt")
        try "thing\n".write(to: names, atomically: true, encoding: .utf8)
        let picture = try ImageDecoder.decode(contentsOfFile: images.appendingPathComponent("a.jpg").path).bitmap
        let w = Double(picture.width), h = Double(picture.height)
        // A prediction on the label's box (cx, cy, w, h = ½ of the picture, normalized): AP 1.
        let record: [String: Any] = [
            "source": "a.jpg",
            "detections": [
                [
                    "boundingBox": ["originX": w / 4, "originY": h / 4, "width": w / 2, "height": h / 2],
                    "categories": [["score": 0.9, "categoryName": "Thing"]],
                ]
            ],
        ]
        let predictions = folder.appendingPathComponent("p.jsonl")
        try JSONSerialization.data(withJSONObject: record).write(to: predictions)
        let yolo = Self.run([
            "eval", "detect", "--annotations", labels.path, "--images", images.path, "--names", names.path,
            "--predictions", predictions.path, "--json",
        ])
        #expect(yolo.status == 0, "\(yolo.stderr)")
        let yoloStats = try #require(try Self.json(yolo.stdout)["cocoStats"] as? [Double])
        #expect(abs(yoloStats[0] - 1) < 1e-9 && abs(yoloStats[8] - 1) < 1e-9)
        // Another run's records as the ground truth (compare two models): the same records score 1.
        let records = Self.run([
            "eval", "detect", "--annotations", predictions.path, "--predictions", predictions.path, "--json",
        ])
        let recordStats = try #require(try Self.json(records.stdout)["cocoStats"] as? [Double])
        #expect(abs(recordStats[0] - 1) < 1e-9)
        let noNames = Self.run([
            "eval", "detect", "--annotations", labels.path, "--images", images.path, "--predictions", "x.jsonl",
        ])
        #expect(noNames.status == 64 && noNames.stderr.contains("YOLO labels need --names FILE"))
        let missing = Self.run(["eval", "detect", "--annotations", "/nonexistent/gt.json", "--predictions", "x.jsonl"])
        #expect(
            missing.status == 64
                && missing.stderr.contains("--annotations /nonexistent/gt.json: no such file or folder"))
        let wrongKind = Self.run(["eval", "segment", "--annotations", labels.path])
        #expect(wrongKind.status == 64 && wrongKind.stderr.contains("eval knows 'detect', 'classify' and 'track'"))
    }
}

/// `vision-tasks eval classify`: a folder per class and a CSV give top-1/top-5 as counted by hand.
@Suite("vision-tasks eval classify", .enabled(if: TestAssets.shouldRun))
struct EvalClassifyTests {
    @Test(
        """
        one photo labelled with its top-1, one with its second answer, one with a class the model lacks: top-1 1/3, \
        top-5 2/3
        """
    )
    func folders() throws {
        let model = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")
        let photos = ["cat_720p.jpg", "dog.jpg", "owl.jpg"].map { TestAssets.image($0) }
        let classified = EvalCommandTests.run(
            ["classify", "--model", model, "--max-results", "2", "--sequential", "--jsonl", "-"] + photos)
        #expect(classified.status == 0, "\(classified.stderr)")
        let records = try classified.stdout.split(separator: "\n").filter { $0.contains("\"source\"") }.map {
            try EvalCommandTests.json(String($0))
        }
        func answers(_ r: [String: Any]) -> [String] {
            let heads = r["classifications"] as? [[String: Any]] ?? []
            return (heads.first?["categories"] as? [[String: Any]] ?? []).compactMap { $0["categoryName"] as? String }
        }
        #expect(records.count == 3)
        let truths = [answers(records[0])[0], answers(records[1])[1], "no such class"]
        let root = try EvalCommandTests.temporary("classes")
        var csv = "file,label\n"
        for (i, photo) in photos.enumerated() {
            let folder = root.appendingPathComponent(truths[i])
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let name = URL(fileURLWithPath: photo).lastPathComponent
            try FileManager.default.copyItem(atPath: photo, toPath: folder.appendingPathComponent(name).path)
            csv += "\"\(truths[i])/\(name)\",\"\(truths[i])\"\n"
        }
        let byFolder = EvalCommandTests.run(["eval", "classify", "--model", model, "--images", root.path, "--json"])
        #expect(byFolder.status == 0, "\(byFolder.stderr)")
        let out = try EvalCommandTests.json(byFolder.stdout)
        #expect(out["pictures"] as? Int == 3)
        #expect(
            abs((out["top1"] as? Double ?? 0) - 1.0 / 3.0) < 1e-12
                && abs((out["top5"] as? Double ?? 0) - 2.0 / 3.0) < 1e-12)
        let labels = try EvalCommandTests.temporary("labels.csv")
        try csv.write(to: labels, atomically: true, encoding: .utf8)
        let byCSV = EvalCommandTests.run([
            "eval", "classify", "--model", model, "--images", root.path, "--annotations", labels.path, "--json",
        ])
        #expect(byCSV.status == 0, "\(byCSV.stderr)")
        let csvOut = try EvalCommandTests.json(byCSV.stdout)
        #expect(
            csvOut["top1"] as? Double == out["top1"] as? Double && csvOut["top5"] as? Double == out["top5"] as? Double)
    }
}

/// `vision-tasks eval track`: TrackEval's numbers through the command line, from MOT text and from
/// `track --jsonl` records.
@Suite("vision-tasks eval track")
struct EvalTrackTests {
    @Test("MOT text and the same boxes as track records give TrackEval's HOTA, MOTA and IDF1")
    func track() throws {
        let fixtures = EvalCommandTests.fixtures
        let golden = try Goldens.dictionary("tracking_eval.json")
        let mot = EvalCommandTests.run([
            "eval", "track", "--gt", fixtures.appendingPathComponent("mot_gt.txt").path, "--results",
            fixtures.appendingPathComponent("mot_tracks.txt").path,
            "--json",
        ])
        #expect(mot.status == 0, "\(mot.stderr)")
        let out = try EvalCommandTests.json(mot.stdout)
        let hota = try #require((golden["hota"] as? [String: Double])?["HOTA"]),
            mota = try #require((golden["clear"] as? [String: Double])?["MOTA"])
        #expect(
            abs((out["HOTA"] as? Double ?? -1) - hota) <= 1e-6 && abs((out["MOTA"] as? Double ?? -1) - mota) <= 1e-6)
        // The same tracker boxes as `track --jsonl` records.
        let tracks = try String(contentsOf: fixtures.appendingPathComponent("mot_tracks.txt"), encoding: .utf8)
        var byFrame: [Int: [[String: Any]]] = [:]
        for line in tracks.split(separator: "\n") {
            let f = line.split(separator: ",").compactMap { Double($0) }
            byFrame[Int(f[0]), default: []].append([
                "frame": ["originX": f[2], "originY": f[3], "width": f[4], "height": f[5]], "trackingID": Int(f[1]),
                "labels": [],
            ])
        }
        var jsonl = ""
        for frame in byFrame.keys.sorted() {
            let record: [String: Any] = [
                "source": "clip.mp4", "frame": frame, "timestampMs": frame * 33, "objects": byFrame[frame] ?? [],
            ]
            jsonl += String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self) + "\n"
        }
        let path = try EvalCommandTests.temporary("tracks.jsonl")
        try jsonl.write(to: path, atomically: true, encoding: .utf8)
        let records = EvalCommandTests.run([
            "eval", "track", "--gt", fixtures.appendingPathComponent("mot_gt.txt").path, "--results", path.path,
            "--json",
        ])
        let recordsOut = try EvalCommandTests.json(records.stdout)
        #expect(
            recordsOut["HOTA"] as? Double == out["HOTA"] as? Double
                && recordsOut["IDF1"] as? Double == out["IDF1"] as? Double)
        let missing = EvalCommandTests.run(["eval", "track", "--gt", "/nonexistent.txt", "--results", path.path])
        #expect(missing.status == 64 && missing.stderr.contains("cannot read /nonexistent.txt"))
    }
}
