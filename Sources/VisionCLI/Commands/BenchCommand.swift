import Foundation
import Imaging
import LiteRT
import MLKit
import MediaPipeTasksVision
import TFLiteModel
import VisionCore
import VisionPipeline

/// `vision-tasks bench`: medians of the raw LiteRT run, preprocessing, post-processing and the
/// end-to-end `detect`, measured side by side in one process on the same model and picture.
enum BenchCommand {
    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func time(_ runs: Int, _ warmup: Int, _ body: () throws -> Void) rethrows -> [Double] {
        for _ in 0..<warmup { try body() }
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let t0 = Clock.now()
            try body()
            samples.append(Clock.now() - t0)
        }
        return samples
    }

    /// Whether the model is a detector (the head's rule).
    static func looksLikeDetector(_ path: String) throws -> Bool {
        guard let file = try? ModelFile(contentsOfFile: path) else { return true }
        return DetectionHead.isDetector(file)
    }

    /// The model's input tensor format, as its task's engine (detector or classifier) prepares it.
    static func inputFormat(model: String, resources: ModelResources, threads: Int) throws -> TensorFormat {
        if try looksLikeDetector(model) {
            return try ObjectDetectionEngine(resources: resources, options: DetectorOptions(), threads: threads)
                .inference.spec.tensorFormat
        }
        return try ImageClassificationEngine(resources: resources, options: ClassifierOptions(), threads: threads)
            .inference.spec.tensorFormat
    }

    static let spec = CommandSpec(
        name: "bench",
        summary: "measure: stage medians on one picture, or pipelined vs sequential throughput on a folder or video",
        positionals: "[INPUT...]",
        positionalHelp: "with --throughput: the pictures, folders or videos to run (else the picture, like --image)",
        count: 0...Int.max,
        options: [
            TaskArguments.model,
            OptionSpec(.image, .text, "PICTURE", help: "the picture for the stage medians"),
            OptionSpec(
                .task, .choice(["detect", "classify", "label"]),
                help: "the task (default: detect for detectors, else classify)"),
            OptionSpec(.runs, .integer(1...1_000_000), "N", default: "50", help: "measured runs"),
            OptionSpec(
                .warmup, .integer(0...1_000_000), "N", default: "5",
                help: "warm-up runs (--sizes: 2 per size unless given, at most 5)"),
            TaskArguments.threads,
            TaskArguments.fastHybrid,
            TaskArguments.fastDecode,
            OptionSpec(
                .throughput, .flag,
                help: "items/s of the app's pipeline vs a plain sequential loop on INPUT..., rounds interleaved"),
            OptionSpec(.rounds, .integer(1...100), "N", default: "3", help: "--throughput: rounds of each (medians)"),
            OptionSpec(.every, .integer(1...1_000_000), "N", default: "1", help: "--throughput: every Nth video frame"),
            OptionSpec(
                .workers, .integer(1...64), "N",
                help: "--throughput: the pipeline's inference workers (default: CPUs ÷ threads)"),
            OptionSpec(
                .withOutput, .flag, help: "--throughput: also write annotated pictures/videos (to a temporary folder)"),
            OptionSpec(.memory, .flag, help: "resident memory: before, with the task created, after --calls calls"),
            OptionSpec(.calls, .integer(1...10_000_000), "N", default: "1000", help: "--memory: calls"),
            OptionSpec(
                .sizes, .flag,
                help: "preprocessing time over picture sizes 64…2048 (odd and even, portrait, landscape), --runs each"),
            OptionSpec(
                .profile, .flag,
                help: "time per op kind and per op (LiteRT's profiler) with VisionTasks' kernels and with LiteRT's only"
            ),
            OptionSpec(.json, .flag, help: "one JSON object"),
        ],
        notes:
            "Examples: vision-tasks bench --model ssd.tflite --image dog.jpg\n          vision-tasks bench --model "
            + "ssd.tflite --throughput photos/ clip.mp4\n          vision-tasks bench --model ssd.tflite --sizes\n"
            + "          vision-tasks bench --model ssd.tflite --image dog.jpg --profile",
        run: run)

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        if p.flag(.throughput) { return try ThroughputBench.run(p, console) }
        if p.flag(.memory) { return try MemoryBench.run(p, console) }
        if p.flag(.sizes) { return try SizeSweep.run(p, console) }
        if p.flag(.profile) { return try OpProfile.run(p, console) }
        let model = try ModelZoo.resolve(try TaskArguments.requiredModel(p))
        guard let imagePath = p.string(.image) ?? p.positionals.first else {
            throw CLIError.usage("bench needs --image PICTURE (or --throughput INPUT...)")
        }
        let runs = try p.value(.runs, as: Int.self)
        let warmup = try p.value(.warmup, as: Int.self)
        let threads = try p.value(.threads, as: Int.self)
        let json = p.flag(.json)
        let fastHybrid = p.flag(.fastHybrid)
        // The picture read from its file: exactly, or with --fast-decode at a reduced scale for the model's input.
        var fileImage: () throws -> MPImage = { try MPImage(contentsOfFile: imagePath) }

        let image = try MPImage(contentsOfFile: imagePath, orientation: .up)
        let detector = try Self.looksLikeDetector(model)
        let task = p.string(.task) ?? (detector ? "detect" : "classify")

        // The task through the package API, and the same model compiled again and driven stage by
        // stage, for the raw-run and per-stage figures.
        var endToEnd: () throws -> Void
        // The same task on a picture read from the file each time (decoding included).
        var fromFile: () throws -> Void
        // Makes the task anew (for the load times): the task's call on a picture.
        var makeTask: () throws -> (MPImage) throws -> Void
        // For `label`: the classifier on the same model, measured in the same rounds.
        var compare: (() throws -> Void)?
        let inference: ImageInference
        let postprocess: (ModelOutputs) throws -> Void
        func configure(_ base: BaseOptions) {
            base.modelAssetPath = model
            base.numThreads = threads
            base.optimizeHybridModels = fastHybrid
        }
        let resources = { try ModelResources(path: model, optimizeHybridModels: fastHybrid) }
        if task == "detect" {
            let options = ObjectDetectorOptions()
            configure(options.baseOptions)
            makeTask = {
                let detector = try ObjectDetector(options: options)
                return { _ = try detector.detect(image: $0) }
            }
            let detect = try makeTask()
            endToEnd = { try detect(image) }
            fromFile = { try detect(fileImage()) }
            let loaded = try resources()
            let engine = try ObjectDetectionEngine(resources: loaded, options: DetectorOptions(), threads: threads)
            // JPEGs decode to the pixels the head's reference sees, as `detect` decodes them.
            let jpeg = JPEGDecoding(engine.head.preferredJPEG)
            fileImage = { try MPImage(contentsOfFile: imagePath, jpegDecoding: jpeg) }
            inference = engine.inference
            postprocess = {
                _ = try engine.head.process(
                    $0, bitmapWidth: image.bitmap.width, bitmapHeight: image.bitmap.height,
                    imageWidth: image.bitmap.width,
                    imageHeight: image.bitmap.height, orientation: .up)
            }
            _ = try engine.detect(image.bitmap)
        } else {
            let options = ImageClassifierOptions()
            configure(options.baseOptions)
            makeTask = {
                let classifier = try ImageClassifier(options: options)
                return { _ = try classifier.classify(image: $0) }
            }
            let classify = try makeTask()
            endToEnd = { try classify(image) }
            fromFile = { try classify(fileImage()) }
            let loaded = try resources()
            let engine = try ImageClassificationEngine(
                resources: loaded, options: ClassifierOptions(), threads: threads)
            inference = engine.inference
            postprocess = { _ = try engine.postprocessor.process($0) }
            _ = try engine.classify(image.bitmap)
            if task == "label" {
                let labelerOptions = CustomImageLabelerOptions(localModel: LocalModel(path: model))
                labelerOptions.numThreads = threads
                let labeler = ImageLabeler.imageLabeler(options: labelerOptions)
                if let error = labeler.modelError { throw error }
                let visionImage = VisionImage(image: UIImage(bitmap: image.bitmap))
                compare = endToEnd
                endToEnd = { _ = try labeler.results(in: visionImage) }
                fromFile = {
                    _ = try labeler.results(
                        in: VisionImage(image: try UIImage(contentsOfFile: imagePath).orThrow(imagePath)))
                }
            }
        }
        let compiled = inference.compiled
        let format = inference.spec.tensorFormat
        if p.flag(.fastDecode) {
            let size = CGSize(width: format.width, height: format.height)
            fileImage = { try MPImage(contentsOfFile: imagePath, fastDecodeFor: size) }
        }
        let preprocessor = ImagePreprocessor()
        preprocessor.threads = threads
        var scratch = [UInt8](repeating: 0, count: format.byteCount)

        // Preprocessing alone, back to back (warm caches): the kernel's own speed.
        let preHot = median(
            try time(runs, warmup) {
                try scratch.withUnsafeMutableBytes { try preprocessor.process(image.bitmap, format: format, into: $0) }
            })

        // Model load and first call: cold (the model's pages dropped from the page cache first) and warm.
        let loads = try Self.loadTimes(model: model, rounds: 3, makeTask, image)

        // Interleave the measurements round by round so that machine noise hits them alike.
        var rawT: [Double] = [], preT: [Double] = [], postT: [Double] = [], e2eT: [Double] = [], compareT: [Double] = []
        var decodeT: [Double] = [], fileT: [Double] = []
        for round in 0..<(runs + warmup) {
            let t0 = Clock.now()
            try compiled.run()
            let t1 = Clock.now()
            try scratch.withUnsafeMutableBytes { try preprocessor.process(image.bitmap, format: format, into: $0) }
            let t2 = Clock.now()
            try postprocess(inference.outputs)
            let t3 = Clock.now()
            try endToEnd()
            let t4 = Clock.now()
            try compare?()
            let t5 = Clock.now()
            _ = try fileImage()
            let t6 = Clock.now()
            try fromFile()
            let t7 = Clock.now()
            if round >= warmup {
                rawT.append(t1 - t0); preT.append(t2 - t1); postT.append(t3 - t2); e2eT.append(t4 - t3);
                compareT.append(t5 - t4)
                decodeT.append(t6 - t5); fileT.append(t7 - t6)
            }
        }
        let decode = median(decodeT), file = median(fileT)
        let raw = median(rawT), pre = median(preT), post = median(postT), e2e = median(e2eT)
        let ratio = e2e / raw
        let classify = compare == nil ? nil : median(compareT)
        if json {
            console.out(
                "{\"model\":\(JSONValue.escape(model)),\"image\":\(JSONValue.escape(imagePath)),"
                    + "\"width\":\(image.bitmap.width),\"height\":\(image.bitmap.height),"
                    + "\"input\":[\(format.width),\(format.height)],\"threads\":\(threads),\"runs\":\(runs),"
                    + String(
                        format:
                            "\"raw_ms\":%.4f,\"preprocess_ms\":%.4f,\"postprocess_ms\":%.4f,\"task\":\"\(task)\","
                            + "\"detect_ms\":%.4f,\"detect_over_raw\":%.4f,\"preprocess_alone_ms\":%.4f",
                        raw * 1000, pre * 1000, post * 1000, e2e * 1000, ratio, preHot * 1000)
                    + String(format: ",\"decode_ms\":%.4f,\"file_to_result_ms\":%.4f", decode * 1000, file * 1000)
                    + String(
                        format: ",\"load_cold_ms\":%.3f,\"load_warm_ms\":%.3f,\"first_call_ms\":%.3f",
                        loads.cold * 1000, loads.warm * 1000,
                        loads.firstCall * 1000)
                    + (classify.map {
                        String(format: ",\"classify_ms\":%.4f,\"label_over_classify\":%.4f", $0 * 1000, e2e / $0)
                    } ?? "") + "}")
        } else {
            console.out("model        \(model)")
            console.out(
                "image        \(imagePath) (\(image.bitmap.width)x\(image.bitmap.height)) → input "
                    + "\(format.width)x\(format.height)"
            )
            console.out("threads      \(threads), \(runs) runs after \(warmup) warm-up, medians")
            console.out(String(format: "raw LiteRT run       %8.3f ms", raw * 1000))
            console.out(
                String(format: "preprocessing        %8.3f ms (%.3f ms back to back)", pre * 1000, preHot * 1000))
            console.out(String(format: "post-processing      %8.3f ms", post * 1000))
            console.out(String(format: "\(task) (end to end) %8.3f ms", e2e * 1000))
            console.out(String(format: "\(task) / raw        %8.3f", ratio))
            console.out(String(format: "decode (file)        %8.3f ms", decode * 1000))
            console.out(String(format: "file → result        %8.3f ms", file * 1000))
            console.out(
                String(
                    format:
                        "model load           %8.3f ms cold (not in the page cache), %.3f ms warm; first call %.3f ms",
                    loads.cold * 1000, loads.warm * 1000, loads.firstCall * 1000))
            if let classify {
                console.out(String(format: "classify (same model) %7.3f ms", classify * 1000))
                console.out(String(format: "label / classify     %8.3f", e2e / classify))
            }
        }
    }
}

extension BenchCommand {
    /// Medians of `rounds` task creations with the model file dropped from the page cache first
    /// (`posix_fadvise` DONTNEED: read from the disk again), of as many with it cached, and of the
    /// first call after creation.
    static func loadTimes(
        model: String, rounds: Int, _ make: () throws -> (MPImage) throws -> Void, _ image: MPImage
    ) throws
        -> (cold: Double, warm: Double, firstCall: Double)
    {
        var cold: [Double] = [], warm: [Double] = [], first: [Double] = []
        for _ in 0..<rounds {
            let fd = open(model, O_RDONLY)
            if fd >= 0 {
                fdatasync(fd)
                _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
                close(fd)
            }
            var t0 = Clock.now()
            _ = try make()
            cold.append(Clock.now() - t0)
            t0 = Clock.now()
            let call = try make()
            warm.append(Clock.now() - t0)
            t0 = Clock.now()
            try call(image)
            first.append(Clock.now() - t0)
        }
        return (median(cold), median(warm), median(first))
    }
}

extension Optional {
    /// The value, or a "cannot read" failure naming `path`.
    func orThrow(_ path: String) throws -> Wrapped {
        guard let self else { throw CLIError.failure("cannot read \(path)") }
        return self
    }
}
