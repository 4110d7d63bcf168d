import FileInput
import Foundation
import MediaPipeTasksVision
import VisionPipeline

/// `bench --memory`: the process's resident memory before the task exists, once it is created, and
/// after `--calls` detect (or classify) calls on a picture — one CLI process, as MediaPipe's
/// counterpart (`scripts/bench/mediapipe_memory.py`) measures itself.
enum MemoryBench {
    static func run(_ p: ParsedCommand, _ console: Console) throws {
        let model = try ModelZoo.resolve(try TaskArguments.requiredModel(p))
        guard let imagePath = p.string(.image) ?? p.positionals.first else {
            throw CLIError.usage("bench --memory needs --image PICTURE")
        }
        let calls = try p.value(.calls, as: Int.self)
        let image = try MPImage(contentsOfFile: imagePath, orientation: .up)
        let task = try p.string(.task) ?? (BenchCommand.looksLikeDetector(model) ? "detect" : "classify")
        let baseline = ProcessMemory.residentBytes()
        let call: () throws -> Void
        let keep: AnyObject
        if task == "detect" {
            let options = ObjectDetectorOptions()
            options.baseOptions.modelAssetPath = model
            options.baseOptions.numThreads = try p.value(.threads, as: Int.self)
            options.baseOptions.optimizeHybridModels = p.flag(.fastHybrid)
            let detector = try ObjectDetector(options: options)
            keep = detector
            call = { _ = try detector.detect(image: image) }
        } else {
            let options = ImageClassifierOptions()
            options.baseOptions.modelAssetPath = model
            options.baseOptions.numThreads = try p.value(.threads, as: Int.self)
            let classifier = try ImageClassifier(options: options)
            keep = classifier
            call = { _ = try classifier.classify(image: image) }
        }
        let created = ProcessMemory.residentBytes()
        try call()
        let first = ProcessMemory.residentBytes()
        for _ in 1..<max(1, calls) { try call() }
        let after = ProcessMemory.residentBytes()
        withExtendedLifetime(keep) {}
        let mib = { (b: Int) in Double(b) / 1_048_576 }
        if p.flag(.json) {
            console.out(
                JSONValue.object([
                    ("model", .string(model)), ("task", .string(task)), ("calls", .int(calls)),
                    ("baselineMiB", .number(mib(baseline))), ("createdMiB", .number(mib(created))),
                    ("firstCallMiB", .number(mib(first))), ("afterCallsMiB", .number(mib(after))),
                ]).text)
        } else {
            console.out(
                String(
                    format:
                        "resident memory: %.1f MiB before, %.1f MiB with the %@ created (+%.1f), %.1f MiB after 1 "
                        + "call, %.1f MiB after %d calls",
                    mib(baseline), mib(created), task, mib(created - baseline), mib(first), mib(after), calls))
        }
    }
}
