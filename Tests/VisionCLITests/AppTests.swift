import Foundation
import Testing
import Video
import VisionPipeline
import VisionServer
import VisionTestSupport

/// The `vision-tasks` app end to end, through the built executable: every task on the shared
/// photos, folders, lists and globs, the shared video, `--live`, records checked against the JSON
/// Schema and MediaPipe's goldens, interruption and `--resume`, shards, the HTML report in headless
/// Chromium, `inspect`/`metadata` on the no-metadata detectors, and `models`.
@Suite("vision-tasks app, end to end", .enabled(if: TestAssets.shouldRun))
struct AppTests {
    static let ssd = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")

    /// A record's detections as "x y w h name score" (the score as a Float).
    static func detections(_ r: [String: Any]) -> [String] {
        ((r["detections"] as? [[String: Any]]) ?? []).map { d in
            let b = d["boundingBox"] as? [String: Double] ?? [:]
            let c = (d["categories"] as? [[String: Any]])?.first ?? [:]
            return "\(b["originX"] ?? -1) \(b["originY"] ?? -1) \(b["width"] ?? -1) \(b["height"] ?? -1) "
                + "\(c["categoryName"] as? String ?? "-") \(Float(c["score"] as? Double ?? -1))"
        }
    }

    @Test("detect on a folder: one record per photo (schema-valid), equal to MediaPipe 1.2.2's golden detections")
    func detectFolderMatchesGoldens() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jsonl = dir + "/r.jsonl"
        let r = try AppProcess.run([
            "detect", "--model", Self.ssd, TestAssets.root + "/images", "--every", "50", "--jsonl", jsonl, "--progress",
            "lines",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)  // --jsonl to a file: records go there
        #expect(
            r.stderr.contains("detect: 9 pictures, 1 video (8 frames)") && r.stderr.contains("inference")
                && r.stderr.contains("progress: 17/17 (100%)"))
        try AppProcess.validate(jsonl)
        let records = try AppProcess.records(jsonl)
        let goldens = try #require(try Goldens.dictionary("mediapipe_detector.json")["results"] as? [String: Any])
        var compared = 0
        for name in TestAssets.photoNames {
            let record = try #require(
                records.first { ($0["source"] as? String)?.hasSuffix("/" + name) == true }, "no record for \(name)")
            let golden = try #require(
                goldens["ssd_mobilenet_v1_coco_quant_metadata.tflite|\(name)|default"] as? [[String: Any]])
            let expected: [String] = golden.map { g in
                let box = (g["box"] as? [Double] ?? []).map { "\($0)" }.joined(separator: " ")
                let c = (g["categories"] as? [[String: Any]])?.first ?? [:]
                return box + " \(c["name"] as? String ?? "-") \(Float(c["score"] as? Double ?? -2))"
            }
            #expect(Self.detections(record) == expected, "\(name)")
            compared += 1
        }
        #expect(compared == 9)
        // Records keep the input order: folder listing sorted, the video's frames in order.
        let frames = records.compactMap { $0["frame"] as? Int }
        #expect(frames == [1, 51, 101, 151, 201, 251, 301, 351])
        #expect(records.compactMap { $0["timestampMs"] as? Int } == frames.map { ($0 - 1) * 80 })
    }

    @Test("classify, label and track on photos; --json prints one schema-valid document; text output by default")
    func otherTasks() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let classifier = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")
        let photos = [TestAssets.image("dog.jpg"), TestAssets.image("pets.jpg")]
        let classify = try AppProcess.run(["classify", "--model", classifier, "--max-results", "3", "--json"] + photos)
        #expect(classify.status == 0)
        try classify.stdout.write(toFile: dir + "/classify.json", atomically: true, encoding: .utf8)
        try AppProcess.validate(dir + "/classify.json", jsonl: false)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(classify.stdout.utf8)) as? [String: Any])
        let records = try #require(doc["records"] as? [[String: Any]])
        #expect(doc["command"] as? String == "classify" && records.count == 2)
        let top = ((records[1]["classifications"] as? [[String: Any]])?.first?["categories"] as? [[String: Any]])?.first
        #expect(top?["categoryName"] as? String == "Boston bull, Boston terrier")

        let label = try AppProcess.run(["label", "--model", classifier, "--jsonl", dir + "/label.jsonl"] + photos)
        #expect(label.status == 0)
        try AppProcess.validate(dir + "/label.jsonl")
        #expect(try AppProcess.records(dir + "/label.jsonl").count == 2)

        let track = try AppProcess.run([
            "track", "--model", classifier, "--jsonl", dir + "/track.jsonl", TestAssets.image("pets.jpg"),
        ])
        #expect(track.status == 0)
        try AppProcess.validate(dir + "/track.jsonl")
        let objects = try #require(try AppProcess.records(dir + "/track.jsonl").first?["objects"] as? [[String: Any]])
        #expect(objects.count == 2 && objects.allSatisfy { $0["trackingID"] is NSNull })  // single-image mode: no IDs

        let text = try AppProcess.run([
            "detect", "--model", Self.ssd, TestAssets.image("dog.jpg"), "--max-results", "1",
        ])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("ObjectDetectorResult:\n Detection #0:\n  Box: (x: 146, y: 114, w: 429, h: 316)"))
    }

    @Test(
        """
        a video: video running mode with the container's timestamps, --every, an annotated H.264 video with every \
        processed frame
        """
    )
    func video() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try AppProcess.run([
            "detect", "--model", Self.ssd, TestAssets.image("car-detection.mp4"), "--every", "4",
            "--jsonl", dir + "/v.jsonl", "--output", dir + "/out",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let records = try AppProcess.records(dir + "/v.jsonl")
        #expect(records.count == 95)  // ⌈377 / 4⌉
        #expect(records.map { $0["frame"] as? Int ?? 0 } == Array(stride(from: 1, through: 377, by: 4)))
        let annotated = dir + "/out/car-detection_detect.mp4"
        let reader = try VideoReader(path: annotated)
        var count = 0
        while try reader.nextFrame() != nil { count += 1 }
        #expect(count == 95 && reader.info.codec == "h264")
        #expect(r.stderr.contains("wrote \(annotated)"))
    }

    @Test(
        """
        --live on the shared video: real-time pace, live-stream mode; frames read = delivered + dropped; one record \
        per delivered frame
        """,
        .disabled(if: TestAssets.underSanitizer))
    func live() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let started = Date()
        let r = try AppProcess.run([
            "detect", "--model", Self.ssd, "--live", TestAssets.image("car-detection.mp4"), "--jsonl",
            dir + "/live.jsonl",
        ])
        let seconds = Date().timeIntervalSince(started)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(seconds > 29)  // 377 frames at 12.5 frames/s: about 30 s
        let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("live: ") })
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        try #require(numbers.count >= 3, "\(line)")
        #expect(numbers[0] == 377 && numbers[1] + numbers[2] == 377 && numbers[1] > 0, "\(line)")
        let records = try AppProcess.records(dir + "/live.jsonl")
        #expect(records.count == numbers[1])
        let stamps = records.compactMap { $0["timestampMs"] as? Int }
        #expect(stamps.count == records.count && zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        try AppProcess.validate(dir + "/live.jsonl")
    }

    @Test(
        """
        --live on a stream URL (an HTTP MPEG-TS stream served by ffmpeg); a missing camera or a refused URL is error \
        5
        """,
        .disabled(if: TestAssets.underSanitizer))
    func liveStream() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clip = dir + "/clip.mp4"
        let cut = Process()
        cut.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cut.arguments = [
            "ffmpeg", "-loglevel", "error", "-y", "-i", TestAssets.image("car-detection.mp4"), "-t", "3", "-c", "copy",
            clip,
        ]
        try cut.run()
        cut.waitUntilExit()
        let port = 30_000 + Int(getpid() % 20_000)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "ffmpeg", "-loglevel", "error", "-re", "-i", clip, "-c", "copy", "-f", "mpegts", "-listen", "1",
            "http://127.0.0.1:\(port)/live.ts",
        ]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        usleep(800_000)
        let r = try AppProcess.run([
            "classify", "--model", TestAssets.model("mobilenet_v2_1.0_224_quant.tflite"), "--live",
            "http://127.0.0.1:\(port)/live.ts",
            "--jsonl", dir + "/live.jsonl",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("live: ") })
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        try #require(numbers.count >= 3)
        #expect(numbers[0] >= 30 && numbers[1] + numbers[2] == numbers[0] && numbers[1] > 0, "\(line)")
        #expect(try AppProcess.records(dir + "/live.jsonl").count == numbers[1])
        let camera = try AppProcess.run(["detect", "--model", Self.ssd, "--live", "/dev/video9"])
        #expect(
            camera.status == 5 && camera.stderr.contains("cannot open the live source")
                && camera.stderr.contains("is the camera connected"))
        let refused = try AppProcess.run(["detect", "--model", Self.ssd, "--live", "http://127.0.0.1:9/none.ts"])
        #expect(refused.status == 5 && refused.stderr.contains("cannot open the live source"))
    }

    @Test("bench through the executable: stage medians on a photo; pipelined vs sequential throughput as JSON")
    func bench() throws {
        let stages = try AppProcess.run([
            "bench", "--model", Self.ssd, "--image", TestAssets.image("dog.jpg"), "--runs", "3", "--warmup", "1",
            "--json",
        ])
        #expect(stages.status == 0)
        let s = try #require(try JSONSerialization.jsonObject(with: Data(stages.stdout.utf8)) as? [String: Any])
        #expect(
            (s["raw_ms"] as? Double ?? 0) > 0 && (s["detect_ms"] as? Double ?? 0) >= (s["raw_ms"] as? Double ?? 0) * 0.5
        )
        let t = try AppProcess.run([
            "bench", "--model", Self.ssd, "--throughput", "--rounds", "1", "--workers", "2", "--json",
            TestAssets.image("dog.jpg"), TestAssets.image("pets.jpg"), TestAssets.image("owl.jpg"),
        ])
        #expect(t.status == 0, "\(t.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(t.stdout.utf8)) as? [String: Any])
        #expect(
            o["items"] as? Int == 3 && o["workers"] as? Int == 2 && (o["pipelinedItemsPerSecond"] as? Double ?? 0) > 0
                && (o["speedup"] as? Double ?? 0) > 0)
    }

    @Test("bench --profile: LiteRT's per-op times with VisionTasks' kernels and with LiteRT's only")
    func benchProfile() throws {
        // Our kernels on (they are off by default in a debug build): two columns.
        let r = try AppProcess.run(
            [
                "bench", "--model", Self.ssd, "--image", TestAssets.image("dog.jpg"), "--profile", "--runs", "3",
                "--warmup", "1", "--json",
            ],
            environment: [
                "VISION_TASKS_CONV1X1_KERNEL": "ours", "VISION_TASKS_DEPTHWISE_KERNEL": "ours",
                "VISION_TASKS_POSTPROCESS_KERNEL": "ours",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let columns = try #require(o["columns"] as? [[String: Any]])
        #expect(columns.map { $0["title"] as? String } == ["VisionTasks", "LiteRT only"])
        #expect(o["input"] as? [Int] == [300, 300] && o["runs"] as? Int == 3)
        for (i, column) in columns.enumerated() {
            let kinds = try #require(column["kinds"] as? [[String: Any]])
            let names = kinds.compactMap { $0["kind"] as? String }
            let ours = kinds.filter { $0["ours"] as? Bool == true }.compactMap { $0["kind"] as? String }
            #expect(names.contains("XNNPACK Convolution (NHWC, QU8) DWConv") == (i == 1))
            #expect(names.contains("LiteRT TFLite_Detection_PostProcess") == (i == 1))
            // Every convolution and the post-processing on our kernels, or every one in LiteRT.
            let kernels: Set = [
                "VisionTasks uint8 1x1 convolution", "VisionTasks uint8/int8 depthwise convolution",
                "VisionTasks uint8 spatial convolution (im2col + GEMM)", "VisionTasks detection post-processing",
            ]
            let expected: Set<String> = i == 0 ? kernels : []
            #expect(Set(ours) == expected)
            #expect(names.contains("XNNPACK Fully Connected (NC, QU8) GEMM") == (i == 1))
            let share = column["litert_share"] as? Double ?? -1
            #expect(i == 0 ? share > 0 && share < 1 : share == 1)
            #expect((column["slowest"] as? [Any])?.count == 10)
        }
    }

    @Test(
        "a run killed half-way keeps every finished record; --resume finishes it without duplicates",
        .disabled(if: TestAssets.underSanitizer))
    func interruptAndResume() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jsonl = dir + "/r.jsonl"
        let args = [
            "detect", "--model", Self.ssd, TestAssets.root + "/images", "--jsonl", jsonl, "--every", "2", "--quiet",
        ]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AppProcess.binary)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Kill it (SIGKILL: no chance to clean up) once 80 records are on disk (an emulated aarch64
        // build under qemu writes one every few seconds: the bound is generous, and still a bound).
        let deadline = Date().addingTimeInterval(900)
        while Date() < deadline, p.isRunning {
            let lines = (try? String(contentsOfFile: jsonl, encoding: .utf8))?.split(separator: "\n").count ?? 0
            if lines >= 80 { break }
            usleep(20_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let text = try String(contentsOfFile: jsonl, encoding: .utf8)
        let complete = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()  // lines ended by \n
        #expect(complete.count >= 80 && complete.count < 198, "killed after \(complete.count) records")
        for line in complete {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "a finished record is damaged")
        }

        let resumed = try AppProcess.run(args.dropLast() + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("skipped (already done)"))
        try AppProcess.validate(jsonl)
        let records = try AppProcess.records(jsonl)
        let keys = records.map { "\($0["source"] as? String ?? "")#\($0["frame"] as? Int ?? 0)" }
        #expect(records.count == 9 + 189 && Set(keys).count == keys.count)  // 9 photos + ⌈377 / 2⌉ frames, each once
        #expect(Set(records.compactMap { $0["frame"] as? Int }) == Set(stride(from: 1, through: 377, by: 2)))
    }

    @Test("--shard K/N and the schedulers' variables split the inputs deterministically; together they are the whole")
    func shards() throws {
        let photos = TestAssets.photoNames.map { TestAssets.image($0) }
        func sources(_ extra: [String], env: [String: String] = [:]) throws -> [String] {
            let r = try AppProcess.run(
                ["detect", "--model", Self.ssd, "-", "--jsonl", "-", "--max-results", "1"] + extra, environment: env,
                stdin: photos.joined(separator: "\n") + "\n")
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").compactMap { line in
                ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["source"] as? String
            }
        }
        let parts = try (0..<3).map { try sources(["--shard", "\($0)/3"]) }
        #expect(parts.flatMap { $0 }.sorted() == photos.sorted())
        #expect(Set(parts[0]).isDisjoint(with: parts[1]) && Set(parts[1]).isDisjoint(with: parts[2]))
        #expect(try sources([], env: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"]) == parts[1])
        #expect(try sources(["--shard-count", "3"], env: ["JOB_COMPLETION_INDEX": "2"]) == parts[2])
        #expect(
            try AppProcess.run(["detect", "--model", Self.ssd, photos[0]], environment: ["JOB_COMPLETION_INDEX": "0"])
                .status == 64)
        #expect(try AppProcess.run(["detect", "--model", Self.ssd, photos[0], "--shard", "3/3"]).status == 64)
        // A glob is expanded by the app (quoted, as from a script).
        let glob = try AppProcess.run([
            "detect", "--model", Self.ssd, TestAssets.root + "/images/*.png", "--jsonl", "-", "--max-results", "1",
        ])
        #expect(glob.stdout.split(separator: "\n").count == 2)
    }

    @Test(
        """
        a bad input among good ones: its record carries the error, the others are processed, the exit status is its \
        code
        """
    )
    func partialFailure() throws {
        let r = try AppProcess.run([
            "detect", "--model", Self.ssd, TestAssets.image("dog.jpg"), "/nonexistent/photo.jpg",
            TestAssets.image("owl.jpg"),
            "--jsonl", "-", "--max-results", "1",
        ])
        #expect(r.status == 5)
        let records = r.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(records.count == 3 && records[0]["detections"] != nil && records[2]["detections"] != nil)
        let error = records[1]["error"] as? [String: Any]
        #expect(error?["code"] as? Int == 5 && error?["domain"] as? String == "com.google.mediapipe.tasks")
        #expect(r.stderr.contains("/nonexistent/photo.jpg: error 5"))
    }

    @Test(
        "the HTML report renders in headless Chromium: every thumbnail loads, no console errors",
        .disabled(if: TestAssets.underSanitizer))
    func reportInChromium() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let report = dir + "/report.html"
        let r = try AppProcess.run([
            "detect", "--model", Self.ssd, TestAssets.root + "/images", "--every", "60", "--report", report, "--quiet",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(
            html.contains("<h2>Per class</h2>") && html.contains("bicycle") && !html.contains("http://")
                && !html.contains("<script"))
        let screenshot = ProcessInfo.processInfo.environment["VISION_TASKS_REPORT_SCREENSHOT"] ?? dir + "/report.png"
        let check = try AppProcess.python([
            TestAssets.packageRoot.appendingPathComponent("scripts/report/check_report.py").path,
            report, "--screenshot", screenshot, "--min-images", "15",
        ])
        #expect(check.status == 0, "\(check.stdout.prefix(3000))")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        // 9 photos and 6 frames of the video, each a thumbnail with its boxes drawn.
        #expect(summary["images"] as? Int == 15 && summary["imagesLoaded"] as? Int == 15)
        #expect((summary["consoleErrors"] as? [Any])?.isEmpty == true)
        let png = try #require(FileManager.default.contents(atPath: screenshot))
        #expect(png.count > 50_000 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test(
        """
        eval detect --report: the PR curves, AP per category, confusion and the worst pictures drawn, rendered in \
        Chromium
        """,
        .disabled(if: TestAssets.underSanitizer))
    func evalReportInChromium() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The eval fixture's ground truth on the real photos (ids below 20).
        let fixture = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/eval/coco_gt.json")
        var gt = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
        gt["images"] = (gt["images"] as? [[String: Any]] ?? []).filter { ($0["id"] as? Int ?? 0) < 20 }
        let annotations = dir + "/gt.json", report = dir + "/eval.html"
        try JSONSerialization.data(withJSONObject: gt).write(to: URL(fileURLWithPath: annotations))
        let r = try AppProcess.run([
            "eval", "detect", "--model", Self.ssd, "--images", TestAssets.root + "/images", "--annotations",
            annotations, "--report", report,
        ])
        #expect(r.status == 0 && r.stderr.contains("wrote \(report)"), "\(r.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        // Three curves of up to 101 points, the summary numbers as printed, the worst pictures (six here).
        #expect(html.components(separatedBy: "<polyline").count == 4 && html.contains("<title>IoU .50:.95</title>"))
        #expect(html.contains("Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ]"))
        #expect(html.contains("<h2>Worst pictures</h2>") && html.contains("dog.jpg") && html.contains("missed dog"))
        #expect(!html.contains("http://") && !html.contains("<script"))
        let screenshot = dir + "/eval.png"
        let check = try AppProcess.python([
            TestAssets.packageRoot.appendingPathComponent("scripts/report/check_report.py").path, report,
            "--screenshot", screenshot, "--min-images", "6",
        ])
        #expect(check.status == 0, "\(check.stdout.prefix(3000))")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        #expect(summary["images"] as? Int == 6 && summary["imagesLoaded"] as? Int == 6)
    }

    @Test(
        """
        inspect names the no-metadata detectors' failing checks with the fix; the fixed models give their twins' \
        results
        """
    )
    func inspectAndRepair() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let labels = TestAssets.model("ssd_mobilenet_v2_fpnlite_320_coco_labels.txt")
        for base in ["ssd_mobilenet_v1_coco_quant", "ssd_mobilenet_v2_fpnlite_320_coco_hybrid"] {
            let broken = TestAssets.model(base + "_no_metadata.tflite")
            let inspect = try AppProcess.run(["inspect", broken])
            #expect(inspect.status == 0)
            #expect(
                inspect.stdout.contains(
                    "✗ MediaPipe ObjectDetector: error 3 (com.google.mediapipe.tasks): INVALID_ARGUMENT: Object "
                        + "detection models require TFLite Model Metadata but none was found"
                ))
            // The fix the page gives, run as given (LABELS.txt replaced by the COCO label file).
            let fixLine = try #require(
                inspect.stdout.split(separator: "\n").first {
                    $0.contains("fix: vision-tasks metadata") && $0.contains("--labels")
                })
            var words = fixLine.split(separator: " ").map(String.init)
            words = Array(words.drop { $0 != "metadata" }.prefix { !$0.hasPrefix("(") && !$0.isEmpty })
            let fixed = dir + "/" + base + "_fixed.tflite"
            words = words.map { $0 == "LABELS.txt" ? labels : $0 }
            if let o = words.firstIndex(of: "--output"), o + 1 < words.count { words[o + 1] = fixed }
            #expect(words.contains("--mean") == base.contains("fpnlite"))  // float input: normalization in the fix
            let repair = try AppProcess.run(words)
            #expect(repair.status == 0, "\(words) \(repair.stderr)")
            let after = try AppProcess.run(["inspect", fixed])
            #expect(
                after.stdout.contains("✓ MediaPipe ObjectDetector")
                    && after.stdout.contains("✓ ML Kit ObjectDetector localizer"))
            func results(_ model: String) throws -> [[String]] {
                let r = try AppProcess.run(
                    ["detect", "--model", model, "--jsonl", "-"] + TestAssets.photoNames.map { TestAssets.image($0) })
                #expect(r.status == 0)
                return r.stdout.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }.map(
                    Self.detections)
            }
            let twin = try results(TestAssets.model(base + "_metadata.tflite"))
            #expect(twin.count == 9 && twin.allSatisfy { !$0.isEmpty })
            #expect(try results(fixed) == twin, "\(base)")
        }
    }

    @Test(
        """
        models: lists the official models; fetches a catalog's model over HTTP sha256-checked into the cache; \
        --model NAME uses it
        """
    )
    func models() throws {
        let dir = try AppProcess.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let list = try AppProcess.run(["models"], environment: ["XDG_CACHE_HOME": dir + "/cache"])
        #expect(
            list.status == 0 && list.stdout.contains("coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite")
                && list.stdout.contains("burger.jpg"))
        // A local HTTP server stands in for the model host (the machine has no internet).
        let served = dir + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.ssd, toPath: served + "/team_ssd.tflite")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let port = 20_000 + Int(getpid() % 20_000)
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", served]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        usleep(700_000)
        let digest = try Self.sha256(Self.ssd)
        let catalog = dir + "/catalog.tsv"
        let zeros = String(repeating: "0", count: 64)
        let lines =
            "# team models\nteam_ssd.tflite\tdetector\t\(digest)\thttp://127.0.0.1:\(port)/team_ssd.tflite\n"
            + "broken.tflite\tdetector\t\(zeros)\thttp://127.0.0.1:\(port)/team_ssd.tflite\n"
        try lines.write(toFile: catalog, atomically: true, encoding: .utf8)
        let env = ["XDG_CACHE_HOME": dir + "/cache", "VISION_TASKS_MODEL_CATALOG": catalog]
        #expect(
            try AppProcess.run(["detect", "--model", "team_ssd", TestAssets.image("dog.jpg")], environment: env).status
                == 64)  // not fetched yet
        let fetch = try AppProcess.run(["models", "fetch", "team_ssd"], environment: env)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/cache/vision-tasks/team_ssd.tflite"))
        let detect = try AppProcess.run(
            ["detect", "--model", "team_ssd", TestAssets.image("dog.jpg"), "--max-results", "1"], environment: env)
        #expect(detect.status == 0 && detect.stdout.contains("class name : bicycle"))
        let bad = try AppProcess.run(["models", "fetch", "broken"], environment: env)
        #expect(bad.status != 0 && bad.status != 64 && bad.stderr.contains("com.google.mlkit"))
        #expect(
            try AppProcess.run(["models", "fetch", "coco_ssd_mobilnet"], environment: env).stderr.contains(
                "did you mean"))
    }

    /// The sha256 of `path` (hex), from sha256sum.
    static func sha256(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return String(text.prefix(64))
    }

    @Test("usage errors exit 64 with a suggestion; --help is generated for every command")
    func usage() throws {
        let typo = try AppProcess.run(["detect", "--model", Self.ssd, "--max-resluts", "3", "x.jpg"])
        #expect(typo.status == 64 && typo.stderr.contains("did you mean --max-results?"))
        let command = try AppProcess.run(["tarck", "x.mp4"])
        #expect(command.status == 64 && command.stderr.contains("did you mean 'track'?"))
        for name in ["detect", "classify", "label", "track", "inspect", "metadata", "models", "bench", "soak"] {
            let help = try AppProcess.run([name, "--help"])
            #expect(help.status == 0 && help.stdout.hasPrefix("vision-tasks \(name) — "), "\(name)")
        }
    }
}
