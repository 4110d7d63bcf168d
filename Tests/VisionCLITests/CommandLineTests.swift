import Foundation
import Imaging
import LiteRT
import MLKit
import MediaPipeTasksVision
import TFLiteModel
import Testing
import VisionCore
import VisionPipeline
import VisionServer
import VisionTestSupport

@testable import VisionCLI

@Suite("The command line")
struct CommandLineTests {
    static let spec = CommandSpec(
        name: "t", summary: "test", positionals: "X...", count: 0...Int.max,
        options: TaskArguments.mediaPipe + [OptionSpec(.json, .flag, help: "j")]
    ) { _, _ in }

    @Test("arguments: values, = form, repeated lists, flags, positionals, unknown options with suggestions")
    func parsing() throws {
        let a = try ParsedCommand(
            Self.spec,
            ["--model", "m.tflite", "a.jpg", "--allow=cat,dog", "--allow", "bird", "--json", "b.jpg", "--", "--c.jpg"])
        #expect(a.string(.model) == "m.tflite")
        #expect(a.list(.allow) == ["cat", "dog", "bird"])
        #expect(a.flag(.json) && !a.flag(.fastHybrid))
        #expect(a.positionals == ["a.jpg", "b.jpg", "--c.jpg"])
        #expect(a.int(.threads) == 1 && a.string(.locale) == "en")  // declared defaults
        func message(_ args: [String]) -> String {
            do { _ = try ParsedCommand(Self.spec, args); return "" } catch { return "\(error)" }
        }
        #expect(message(["--max-results", "x"]) == "usage error: --max-results expects an integer, got 'x'")
        #expect(
            message(["--max-resluts", "3"])
                == "usage error: t: unknown option --max-resluts — did you mean --max-results?")
        #expect(message(["--threds", "3"]) == "usage error: t: unknown option --threds — did you mean --threads?")
        #expect(message(["--model"]) == "usage error: --model needs a value (MODEL)")
        #expect(message(["--json=1"]) == "usage error: --json takes no value")
        #expect(message(["--threads", "0"]).hasPrefix("usage error: --threads must be between 1 and"))
        #expect(
            message(["--orientation", "lfet"])
                == "usage error: --orientation must be one of up, down, left, right, up-mirrored, down-mirrored, "
                + "left-mirrored, right-mirrored, got 'lfet' (did you mean 'left'?)"
        )
        #expect(message(["-x"]) == "usage error: t: unknown option -x (options are spelled --name)")
    }

    @Test("help and usage are generated from the declarations: every option appears, every command is listed")
    func generatedHelp() {
        for command in VisionTasksCommand.commands {
            for option in command.options {
                #expect(command.help.contains(option.synopsis), "\(command.name) --\(option.name)")
            }
            #expect(VisionTasksCommand.usage.contains("  " + command.name))
            #expect(
                Set(command.options.map(\.name)).count == command.options.count,
                "\(command.name) declares an option twice")
        }
        #expect(
            VisionTasksCommand.unknown("clasify").description
                == "usage error: unknown command 'clasify' — did you mean 'classify'?")
        #expect(VisionTasksCommand.unknown("zzz").description == "usage error: unknown command 'zzz'")
    }

    @Test("--score-threshold: iOS's default 0 unless given; 'model' asks for the model's own")
    func scoreThreshold() throws {
        func options(_ raw: [String]) throws -> ImageClassifierOptions {
            let options = ImageClassifierOptions()
            try MediaPipeTaskConfig(try ParsedCommand(Self.spec, ["--model", "m.tflite"] + raw)).apply(
                to: options, defaultMaxResults: 5)
            return options
        }
        let plain = try options([])
        #expect(plain.scoreThreshold == 0 && !plain.usesModelScoreThreshold && plain.maxResults == 5)
        let model = try options(["--score-threshold", "model"])
        #expect(model.usesModelScoreThreshold)
        let given = try options(["--score-threshold", "0.3", "--locale", "fr", "--max-results", "2"])
        #expect(
            given.scoreThreshold == 0.3 && !given.usesModelScoreThreshold && given.displayNamesLocale == "fr"
                && given.maxResults == 2)
        #expect(throws: CLIError.self) { try options(["--score-threshold", "modle"]) }
    }

    /// Runs the command line in-process and returns its exit status and what it wrote.
    static func run(_ args: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let (console, captured) = Console.capturing()
        let status = VisionTasksCommand.main(args, console: console)
        return (status, captured.output, captured.error)
    }

    @Test("inspect on an Ultralytics export: its metadata.json (names, size, version) and the YOLO layout it has")
    func inspectYOLO() {
        let fixtures = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/yolo")
        let head = Self.run(["inspect", fixtures.appendingPathComponent("yolov8t_int8.tflite").path])
        #expect(head.status == 0, "\(head.stderr)")
        #expect(
            head.stdout.contains(
                "ultralytics  8.4.190 detect 192×192, 13 classes (bird, giraffe, cat, chair, person, car, …) — "
                    + "metadata.json"
            ))
        #expect(
            head.stdout.contains(
                "yolo         detection head [1, 4+13, 756]: centre-size boxes and 13 class scores per anchor, then NMS"
            ))
        let e2e = Self.run(["inspect", fixtures.appendingPathComponent("yolo26t_e2e_float32.tflite").path])
        #expect(
            e2e.stdout.contains(
                "yolo         end to end [1, 300, 6]: x1, y1, x2, y2, score, class per detection, no NMS"),
            "\(e2e.stdout)")
    }

    @Test(
        "detect --fast-decode: records in the file's pixels, the annotated picture at the decoded size",
        .enabled(if: TestAssets.shouldRun))
    func fastDecode() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vt-fast-decode-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"),
            photo = TestAssets.image("cat_720p.jpg")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("cat.png").path
        let fast = Self.run([
            "detect", "--model", model, "--fast-decode", "--max-results", "3", "--jsonl", "-", "--output", out, photo,
        ])
        let exact = Self.run(["detect", "--model", model, "--max-results", "3", "--jsonl", "-", photo])
        #expect(fast.status == 0 && exact.status == 0, "\(fast.stderr)")
        func record(_ text: String) throws -> [String: Any] {
            let line = try #require(text.split(separator: "\n").first { $0.contains("\"source\"") })
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let f = try record(fast.stdout), e = try record(exact.stdout)
        #expect(f["width"] as? Int == 1280 && f["height"] as? Int == 720)
        let fb = try #require((f["detections"] as? [[String: Any]])?.first?["boundingBox"] as? [String: Int])
        let eb = try #require((e["detections"] as? [[String: Any]])?.first?["boundingBox"] as? [String: Int])
        for key in ["originX", "originY", "width", "height"] {
            #expect(abs((fb[key] ?? 0) - (eb[key] ?? 0)) <= 12, "\(key): \(fb) vs \(eb)")
        }
        let drawn = try ImageDecoder.decode(contentsOfFile: out).bitmap
        #expect(drawn.width == 640 && drawn.height == 360)
    }

    @Test(
        """
        exit status and messages, in-process through the Console: 64 and where to get help for usage errors, \
        MediaPipe's code and message for task errors
        """
    )
    func exitCodes() {
        let none = Self.run([])
        #expect(
            none.status == 64 && none.stdout.hasPrefix("vision-tasks — MediaPipe Tasks Vision") && none.stderr.isEmpty)
        let unknown = Self.run(["frobnicate"])
        #expect(
            unknown.status == 64
                && unknown.stderr
                    == "vision-tasks: usage error: unknown command 'frobnicate'\nRun 'vision-tasks help' for usage.\n"
        )
        let noModel = Self.run(["detect", "a.jpg"])
        #expect(
            noModel.status == 64 && noModel.stderr.contains("detect needs --model MODEL.tflite")
                && noModel.stderr.contains("Run 'vision-tasks detect --help' for usage."))
        let missing = Self.run(["detect", "--model", "/nonexistent.tflite", "a.jpg"])
        #expect(
            missing.status == 5
                && missing.stderr
                    == "vision-tasks: error 5 (com.google.mediapipe.tasks): NOT_FOUND: Unable to open file at "
                    + "/nonexistent.tflite\n"
        )
        #expect(Self.run(["classify", "--model", "/nonexistent.tflite", "a.jpg", "--threads", "0"]).status == 64)
        #expect(CLIError.task(code: 3, message: "x").exitCode == 3)
        let help = Self.run(["detect", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--max-results N") && help.stderr.isEmpty)
        let catalog = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vt-catalog-\(UUID().uuidString).tsv"
        ).path
        defer { try? FileManager.default.removeItem(atPath: catalog) }
        try? "# models\nbad line without tabs\n".write(toFile: catalog, atomically: true, encoding: .utf8)
        setenv("VISION_TASKS_MODEL_CATALOG", catalog, 1)
        defer { unsetenv("VISION_TASKS_MODEL_CATALOG") }
        let models = Self.run(["models", "path", "team_model"])
        #expect(
            models.status == 1
                && models.stderr == "vision-tasks: \(catalog):2: expected name<TAB>kind<TAB>sha256<TAB>url\n")
    }

    @Test(
        """
        CLI fixes are added by the libraries' codes, whatever a message says: labels, the runtime, normalization, a \
        YOLO head
        """
    )
    func hints() {
        let labels = VisionCoreError(.invalidArgument, "reworded: no label texts", condition: .labelsMissing)
        let noLabels = ErrorReport.make(
            MLKitError(labels, prefix: "Failed to initialize labeler."), command: "label", knownCommand: true)
        #expect(noLabels.status == 3)
        #expect(
            noLabels.lines.last
                == "Add labels with: vision-tasks metadata --model MODEL.tflite --labels labels.txt --output "
                + "LABELED.tflite"
        )
        let missing = VisionCoreError(.failedPrecondition, "the runtime is elsewhere", condition: .runtimeUnavailable)
        let runtime = ErrorReport.make(
            TasksError(code: .failedPreconditionError, message: missing.description, underlying: missing),
            command: "detect", knownCommand: true)
        #expect(runtime.status == 9 && runtime.lines.last == "In a VisionTasks checkout, 'make setup' fetches it.")
        let library = ErrorReport.make(
            LiteRTError(code: .libraryNotFound, message: "x"), command: "soak", knownCommand: true)
        #expect(
            library.status == 1
                && library.lines == ["vision-tasks: x", "In a VisionTasks checkout, 'make setup' fetches it."])
        let yolo = ErrorReport.make(
            VisionCoreError(.invalidArgument, "no rule", condition: .yoloLayoutUnknown), command: "inspect",
            knownCommand: true)
        #expect(
            yolo.lines == [
                "vision-tasks: error 3 (com.google.mediapipe.tasks): INVALID_ARGUMENT: no rule",
                "If the output is a YOLO head the rules cannot tell, name it: --head yolo|yolo-transposed|yolo-e2e",
            ])
        let writer = ErrorReport.make(
            TFLiteModelError(.normalizationMissing, "float input"), command: "metadata", knownCommand: true)
        #expect(writer.lines.last == "Give it with --mean M --std S (127.5 and 127.5 for inputs in [-1, 1]).")
        // Text alone adds nothing: a message that only mentions a condition is not one.
        let text = ErrorReport.make(
            MLKitError(.invalidArgument, "add a label file (TENSOR_AXIS_LABELS); libLiteRt.so was not found"),
            command: "label", knownCommand: true)
        #expect(text.lines.count == 1)
        #expect(
            ErrorReport.make(CLIError.failure("x"), command: "detect", knownCommand: true).lines == ["vision-tasks: x"])
    }

    @Test("detect and classify run end to end and write an annotated picture", .enabled(if: TestAssets.shouldRun))
    func endToEnd() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let detect = InProcessCLI.run([
            "detect", "--model", TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"),
            TestAssets.image("dog.jpg"), "--output", out, "--max-results", "3",
        ])
        #expect(detect.status == 0)
        let data = try #require(FileManager.default.contents(atPath: out))
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The text format: MediaPipe's result, at most three detections; the summary and the picture written.
        #expect(detect.output.hasPrefix("ObjectDetectorResult:\n Detection #0:\n  Box: (x: "))
        #expect(detect.outputLines.filter { $0.hasPrefix(" Detection #") }.count == 3)
        #expect(detect.output.contains("   class name : bicycle\n"))
        #expect(detect.errorLines.first?.hasPrefix("detect: 1 picture in ") == true, "\(detect.error)")
        #expect(detect.errorLines.last == "wrote \(out)")
        let classify = InProcessCLI.run([
            "classify", "--model", TestAssets.model("mobilenet_v1_0.25_128_quant.tflite"),
            TestAssets.image("cat_720p.jpg"), "--roi", "0.1,0.1,0.5,0.5", "--json",
        ])
        #expect(classify.status == 0)
        let document = try classify.json()
        #expect(document["command"] as? String == "classify")
        let records = try #require(document["records"] as? [[String: Any]])
        #expect(records.count == 1 && records.first?["source"] as? String == TestAssets.image("cat_720p.jpg"))
        let heads = try #require(records.first?["classifications"] as? [[String: Any]])
        let categories = try #require(heads.first?["categories"] as? [[String: Any]])
        #expect(categories.first?["categoryName"] as? String == "Egyptian cat")
        #expect((document["summary"] as? [String: Any])?["pictures"] as? Int == 1)
        #expect(classify.errorLines.first?.hasPrefix("classify: 1 picture in ") == true, "\(classify.error)")
        let birds = TestAssets.model("aiy_vision_classifier_birds_V1_3.tflite")
        let inspect = InProcessCLI.run(["inspect", birds])
        #expect(inspect.status == 0)
        #expect(inspect.error.isEmpty)
        #expect(inspect.outputLines.first == "model        \(birds) (3561598 bytes, schema v3)")
        #expect(
            inspect.outputLines.contains("output       module/prediction [1, 965] UINT8 scale 0.00390625 zero point 0"))
        #expect(inspect.outputLines.contains("      fix: this is a classifier: use classify or label"))
        #expect(inspect.outputLines.contains("  ✓ MediaPipe ImageClassifier"))
        // A folder: every picture in it, annotated into an output folder.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let many = InProcessCLI.run([
            "detect", "--model", TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"),
            TestAssets.root + "/images", "--output", folder, "--json", "--every", "40",
        ])
        #expect(many.status == 0)
        let summary = try #require(try many.json()["summary"] as? [String: Any])
        #expect(
            summary["pictures"] as? Int == TestAssets.photoNames.count && summary["videos"] as? Int == 1
                && summary["frames"] as? Int == 10 && summary["failures"] as? Int == 0)
        #expect(
            many.errorLines.contains { $0.hasPrefix("detect: 9 pictures, 1 video (10 frames) in ") }, "\(many.error)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder)
        let expected =
            TestAssets.photoNames.map { ($0 as NSString).deletingPathExtension + "_detect.jpg" } + [
                "car-detection_detect.mp4"
            ]
        #expect(Set(written) == Set(expected))
        #expect(
            Set(many.errorLines.filter { $0.hasPrefix("wrote ") }) == Set(expected.map { "wrote \(folder)/\($0)" }))
    }
}

@Suite("The command line refuses bad numbers and shows help")
struct CommandLineHardeningTests {
    @Test("COMMAND --help prints the usage; out-of-range numbers are usage errors")
    func numbers() {
        let detectHelp = InProcessCLI.run(["detect", "--help"])
        #expect(detectHelp.status == 0 && detectHelp.error.isEmpty)
        #expect(
            detectHelp.output.hasPrefix(
                "vision-tasks detect — find objects with MediaPipe's ObjectDetector\n\n"
                    + "Usage: vision-tasks detect INPUT... [options]\n"))
        #expect(detectHelp.outputLines.contains { $0.hasPrefix("  --max-results N ") })
        #expect(detectHelp.outputLines.contains { $0.hasPrefix("  --agnostic-nms ") })
        let classifyHelp = InProcessCLI.run(["classify", "-h"])
        #expect(classifyHelp.status == 0 && classifyHelp.error.isEmpty)
        #expect(
            classifyHelp.output.hasPrefix(
                "vision-tasks classify — classify pictures with MediaPipe's ImageClassifier\n\n"
                    + "Usage: vision-tasks classify INPUT... [options]\n"))
        #expect(
            classifyHelp.outputLines.contains(
                "  --roi x,y,w,h                      classify only this region (normalized coordinates)"))
        let threads = InProcessCLI.run(["detect", "--model", "m.tflite", "a.jpg", "--threads", "100000"])
        #expect(threads.status == 64 && threads.output.isEmpty)
        #expect(threads.error == InProcessCLI.usageError("detect", "--threads must be between 1 and 256, got 100000"))
        let benchThreads = InProcessCLI.run([
            "bench", "--model", "m.tflite", "--image", "a.jpg", "--threads", "100000",
        ])
        #expect(benchThreads.status == 64 && benchThreads.output.isEmpty)
        #expect(
            benchThreads.error == InProcessCLI.usageError("bench", "--threads must be between 1 and 256, got 100000"))
        let runs = InProcessCLI.run(["bench", "--model", "m.tflite", "--image", "a.jpg", "--runs", "-5"])
        #expect(runs.status == 64 && runs.output.isEmpty)
        #expect(runs.error == InProcessCLI.usageError("bench", "--runs must be between 1 and 1000000, got -5"))
    }

    @Test(
        "metadata: keypoint and class counts outside their range are usage errors", .enabled(if: TestAssets.shouldRun))
    func metadataNumbers() {
        let model = TestAssets.model("face_detection_short_range.tflite")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString).tflite").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        for (bad, message) in [
            (["--keypoints", "3000000000"], "--keypoints must be between 0 and 10000, got 3000000000"),
            (["--keypoints", "-1"], "--keypoints must be between 0 and 10000, got -1"),
            (["--keypoint-offset", "-4"], "--keypoint-offset must be between 4 and 100000, got -4"),
            (["--num-classes", "0"], "--num-classes must be between 1 and 100000, got 0"),
            (["--values-per-keypoint", "1000000"], "--values-per-keypoint must be between 2 and 16, got 1000000"),
        ] {
            let run = InProcessCLI.run(
                ["metadata", "--model", model, "--output", out, "--blazeface-short-range"] + bad)
            #expect(run.status == 64 && run.output.isEmpty, "\(bad)")
            #expect(run.error == InProcessCLI.usageError("metadata", message), "\(bad)")
        }
        let strides = InProcessCLI.run([
            "metadata", "--model", model, "--output", out, "--anchor-strides", "0", "--anchor-input-width", "128",
        ])
        #expect(strides.status == 64 && strides.output.isEmpty)
        #expect(strides.error == InProcessCLI.usageError("metadata", "--anchor-strides takes integers from 1 to 65536"))
        let width = InProcessCLI.run([
            "metadata", "--model", model, "--output", out, "--anchor-strides", "1",
            "--anchor-input-width", "1000000000", "--anchor-input-height", "1000000000",
        ])
        #expect(width.status == 64 && width.output.isEmpty)
        #expect(
            width.error
                == InProcessCLI.usageError(
                    "metadata", "--anchor-input-width must be between 1 and 65536, got 1000000000"))
    }

    @Test(
        "a photo whose EXIF orientation is mirrored is turned upright and processed", .enabled(if: TestAssets.shouldRun)
    )
    func mirroredExif() throws {
        let decoded = try ImageDecoder.decode(contentsOfFile: TestAssets.image("dog.jpg"))
        let jpeg = try ImageEncoder.jpeg(decoded.bitmap, quality: 95)
        // An APP1 EXIF block with orientation 2 (mirrored), inserted after SOI.
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0,
        ]
        let exif = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString).jpg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            FileManager.default.createFile(atPath: path, contents: Data(Array(jpeg[0..<2]) + app1 + Array(jpeg[2...]))))
        #expect(try ImageDecoder.decode(contentsOfFile: path).orientation == .upMirrored)
        let detect = InProcessCLI.run([
            "detect", "--model", TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"), path,
        ])
        #expect(detect.status == 0)
        #expect(detect.output.hasPrefix("ObjectDetectorResult:\n Detection #0:\n"))
        #expect(detect.output.contains("   class name : dog\n"))
        #expect(detect.errorLines.first?.hasPrefix("detect: 1 picture in ") == true, "\(detect.error)")
        let upright = try Picture.load(path, orientation: nil)
        #expect(upright.image.orientation == .up && upright.image.bitmap.width == decoded.bitmap.width)
        let original = try ImageDecoder.decode(contentsOfFile: path).bitmap
        #expect(upright.image.bitmap.rgb(x: 0, y: 10) == original.rgb(x: original.width - 1, y: 10))
    }
}

@Suite("vision-tasks label", .enabled(if: TestAssets.shouldRun))
struct LabelCommandTests {
    @Test("labels pictures (text and JSON); ML Kit's codes for bad models; metadata --labels makes a model labelable")
    func label() throws {
        let model = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")
        let text = InProcessCLI.run(["label", "--model", model, TestAssets.image("dog.jpg")])
        #expect(text.status == 0)
        // The text format: one label a line, best first (ten at most by default); the summary on standard error.
        #expect(text.outputLines.count == 10)
        #expect(text.outputLines.first == "malamute, malemute, Alaskan malamute  0.19531  (index 250)")
        #expect(text.errorLines.first?.hasPrefix("label: 1 picture in ") == true, "\(text.error)")
        let json = InProcessCLI.run([
            "label", "--model", model, TestAssets.image("dog.jpg"), TestAssets.image("bird.png"),
            "--json", "--threshold", "0.1", "--max-results", "3", "--orientation", "left-mirrored",
        ])
        #expect(json.status == 0)
        let document = try json.json()
        let records = try #require(document["records"] as? [[String: Any]])
        #expect(
            records.map { $0["source"] as? String } == [TestAssets.image("dog.jpg"), TestAssets.image("bird.png")])
        #expect((records.first?["labels"] as? [Any])?.isEmpty == true)
        let bird = try #require(records.last?["labels"] as? [[String: Any]])
        #expect(bird.count == 1 && bird.first?["text"] as? String == "chickadee" && bird.first?["index"] as? Int == 20)
        #expect((document["summary"] as? [String: Any])?["pictures"] as? Int == 2)
        #expect(json.errorLines.contains { $0.hasPrefix("label: 2 pictures in ") }, "\(json.error)")
        let missing = InProcessCLI.run(["label", "--model", "/nonexistent.tflite", TestAssets.image("dog.jpg")])
        #expect(missing.status == 5 && missing.output.isEmpty)
        #expect(
            missing.errorLines == [
                "vision-tasks: error 5 (com.google.mlkit): Failed to initialize labeler. "
                    + "Unable to open file at /nonexistent.tflite"
            ])
        let detector = InProcessCLI.run([
            "label", "--model", TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"),
            TestAssets.image("dog.jpg"),
        ])
        #expect(detector.status == 3 && detector.output.isEmpty)
        #expect(
            detector.errorLines == [
                "vision-tasks: error 3 (com.google.mlkit): Failed to initialize labeler. "
                    + "The model has 4 output tensors; a custom ML Kit model is an image classifier with exactly 1 "
                    + "(object detectors cannot be used here)."
            ])
        let noInputs = InProcessCLI.run(["label", "--model", model])
        #expect(noInputs.status == 64 && noInputs.output.isEmpty)
        #expect(
            noInputs.error
                == InProcessCLI.usageError(
                    "label",
                    "label needs inputs: pictures, folders, videos, globs or - (paths on stdin); or --live SOURCE"))
        let threads = InProcessCLI.run(["label", "--model", model, TestAssets.image("dog.jpg"), "--threads", "0"])
        #expect(threads.status == 64 && threads.output.isEmpty)
        #expect(threads.error == InProcessCLI.usageError("label", "--threads must be between 1 and 256, got 0"))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let unlabeled = folder.appendingPathComponent("unlabeled.tflite").path
        #expect(
            FileManager.default.createFile(
                atPath: unlabeled,
                contents: Data(try SyntheticModels.classifier(heads: [.init(name: "s", values: [0.3, 0.6])]))))
        let unlabeledRun = InProcessCLI.run(["label", "--model", unlabeled, TestAssets.image("dog.jpg")])
        #expect(unlabeledRun.status == 3 && unlabeledRun.output.isEmpty)
        #expect(
            unlabeledRun.errorLines == [
                "vision-tasks: error 3 (com.google.mlkit): Failed to initialize labeler. "
                    + "The model has no labels in its metadata, and ML Kit takes label texts from there: "
                    + "add a label file (TENSOR_AXIS_LABELS) to the output tensor's metadata.",
                "Add labels with: vision-tasks metadata --model MODEL.tflite --labels labels.txt "
                    + "--output LABELED.tflite",
            ])
        let labels = folder.appendingPathComponent("labels.txt").path
        #expect(FileManager.default.createFile(atPath: labels, contents: Data("left\nright\n".utf8)))
        let labeled = folder.appendingPathComponent("labeled.tflite").path
        let metadata = InProcessCLI.run(["metadata", "--model", unlabeled, "--labels", labels, "--output", labeled])
        #expect(metadata.status == 0 && metadata.error.isEmpty)
        #expect(metadata.output == "wrote \(labeled): classifier metadata, labels labels.txt\n")
        let labeledRun = InProcessCLI.run(["label", "--model", labeled, TestAssets.image("dog.jpg")])
        #expect(labeledRun.status == 0)
        // The synthetic head's two scores, under the labels just added.
        #expect(labeledRun.output == "right  0.60000  (index 1)\nleft  0.30000  (index 0)\n")
        #expect(labeledRun.errorLines.first?.hasPrefix("label: 1 picture in ") == true, "\(labeledRun.error)")
    }
}

@Suite("The app's inputs, shards, resume index and model table")
struct AppPartsTests {
    @Test("folders (a linked one too) are searched recursively and sorted, hidden files skipped; - reads a list; kinds")
    func inputs() throws {
        let root = try AppProcess.folder("inputs")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for p in [
            "b.jpg", "a/z.PNG", "a/c.mp4", ".hidden/x.jpg", "a/notes.txt", "a/b/y.jpeg", "d/.secret.jpg", "d/notes.txt",
        ] {
            try FileManager.default.createDirectory(
                atPath: (root + "/" + p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: root + "/" + p, contents: Data([1])))
        }
        let items = try InputCollector.collect([root])
        #expect(items.map(\.relativePath) == ["a/b/y.jpeg", "a/c.mp4", "a/z.PNG", "b.jpg"])
        #expect(
            try InputCollector.collect([root], videos: false).map(\.relativePath) == ["a/b/y.jpeg", "a/z.PNG", "b.jpg"])
        #expect(items.map(\.kind) == [.picture, .video, .picture, .picture])
        let listed = try InputCollector.collect(
            ["-"], readStandardInput: { "\(root)/b.jpg\n# a comment\n\n\(root)/a\n" })
        #expect(listed.map(\.relativePath) == ["b.jpg", "b/y.jpeg", "c.mp4", "z.PNG"])
        #expect(try InputCollector.collect([root + "/a/*.mp4"]).map(\.path) == [root + "/a/c.mp4"])
        #expect(throws: PipelineError.self) { try InputCollector.collect([root + "/nothing*.jpg"]) }
        // only a hidden picture and a text file
        #expect(throws: PipelineError.self) { try InputCollector.collect([root + "/d"]) }
        // a folder given as a symbolic link: walked where it points, its paths under the link's name
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/a")
        let linked = try InputCollector.collect([root + "/link"])
        #expect(linked.map(\.relativePath) == ["b/y.jpeg", "c.mp4", "z.PNG"])
        #expect(linked.map(\.path) == [root + "/link/b/y.jpeg", root + "/link/c.mp4", root + "/link/z.PNG"])
    }

    @Test("a shard is a stable hash of the path: independent of the other inputs; schedulers' variables")
    func shard() throws {
        #expect(Shard.hash("") == 0xcbf2_9ce4_8422_2325)  // FNV-1a's offset basis
        #expect(Shard.hash("a") == 0xaf63_dc4c_8601_ec8c)  // FNV-1a 64 of "a"
        let s = try #require(
            try Shard.resolve(
                flag: nil, count: nil,
                environment: ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "3"]))
        #expect(s.index == 2 && s.count == 4)
        #expect(try Shard.resolve(flag: nil, count: nil, environment: [:]) == nil)
        #expect(throws: CLIError.self) { try Shard.resolve(flag: "4/4", count: nil, environment: [:]) }
        #expect(throws: CLIError.self) { try Shard.resolve(flag: nil, count: 3, environment: [:]) }
    }

    @Test("resume index: finished records count, error records are redone, a cut last line is removed")
    func resumeIndex() throws {
        let dir = try AppProcess.folder("resume")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/r.jsonl"
        let text =
            "{\"source\":\"a.jpg\",\"detections\":[]}\n"
            + "{\"source\":\"v.mp4\",\"frame\":3,\"timestampMs\":80,\"detections\":[]}\n"
            + "{\"source\":\"b.jpg\",\"error\":{\"domain\":\"d\",\"code\":5,\"message\":\"m\"}}\n{\"source\":\"c.jp"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let index = try ResumeIndex(path: path)
        #expect(index.contains(source: "a.jpg", frame: nil) && index.contains(source: "v.mp4", frame: 3))
        #expect(
            !index.contains(source: "v.mp4", frame: 4) && !index.contains(source: "b.jpg", frame: nil)
                && !index.contains(source: "c.jpg", frame: nil))
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("\"message\":\"m\"}}\n"))
    }

    @Test("the official model table equals docs' model-zoo.md (../shared/docs)", .enabled(if: TestAssets.shouldRun))
    func modelTable() throws {
        let doc = try String(contentsOfFile: TestAssets.root + "/docs/model-zoo.md", encoding: .utf8)
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("https://") }.map { row in
            row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(rows.count == ModelZoo.official.count)
        for (row, entry) in zip(rows, ModelZoo.official) {
            #expect(
                row.count == 3 && row[0].hasPrefix(entry.name + " (") && row[0].contains(entry.kind)
                    && row[1] == entry.sha256 && row[2] == entry.url)
        }
    }
}
