import Foundation
import VisionCore
import VisionPipeline

/// `bench --throughput`: items per second of the app's pipeline against a plain sequential loop
/// (decode, run, write, one item after another) on the same inputs, task and outputs, rounds
/// interleaved (sequential, pipelined, sequential …) so that machine noise hits both alike.
enum ThroughputBench {
    static func run(_ p: ParsedCommand, _ console: Console) throws {
        let model = try ModelZoo.resolve(try TaskArguments.requiredModel(p))
        guard !p.positionals.isEmpty else {
            throw CLIError.usage("bench --throughput needs INPUT... (a folder, pictures or videos)")
        }
        let taskName = try p.string(.task) ?? (BenchCommand.looksLikeDetector(model) ? "detect" : "classify")
        guard ["detect", "classify", "label"].contains(taskName) else {
            throw CLIError.usage("unknown task \(taskName)")
        }
        let rounds = try p.value(.rounds, as: Int.self)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vision-tasks-bench-\(getpid())")
            .path
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var times: [String: [Double]] = ["sequential": [], "pipelined": []]
        var count = 0
        var workers = 1
        var stageTable = ""
        for round in 0..<rounds {
            for mode in ["sequential", "pipelined"] {
                var batch = BatchConfig()
                batch.inputs = p.positionals
                batch.every = try p.value(.every, as: Int.self)
                batch.threads = try p.value(.threads, as: Int.self)
                batch.sequential = mode == "sequential"
                batch.workers = mode == "pipelined" ? p.int(.workers) : nil
                batch.model = model
                var output = OutputConfig()
                output.jsonl = scratch + "/records-\(mode).jsonl"
                output.quiet = true
                if p.flag(.withOutput) { output.output = scratch + "/out-\(mode)-\(round)" }
                var mediaPipe = MediaPipeTaskConfig(modelPath: model)
                mediaPipe.threads = batch.threads
                mediaPipe.fastHybrid = p.flag(.fastHybrid)
                var label = LabelConfig(modelPath: model)
                label.threads = batch.threads
                let items = try InputCollector.collect(batch.inputs)
                let tasks = try batch.tasks(items: items) { () -> BatchTask in
                    switch taskName {
                    case "classify": return try ClassifyTask(mediaPipe)
                    case "label": return try LabelTask(label)
                    default: return try DetectTask(mediaPipe)
                    }
                }
                workers = tasks.count
                let summary = try BatchRunner(
                    tasks: tasks, items: items, batch: batch, output: output, console: console
                ).run()
                if let (source, f) = summary.firstFailure {
                    throw CLIError.task(code: Int(f.exitStatus), message: "\(source): \(f.message)")
                }
                count = summary.pictures + summary.frames
                times[mode, default: []].append(summary.seconds)
                if mode == "pipelined" { stageTable = summary.stages.table() }
            }
        }
        let seq = BenchCommand.median(times["sequential"] ?? []), pipe = BenchCommand.median(times["pipelined"] ?? [])
        let seqRate = Double(count) / max(seq, 1e-9), pipeRate = Double(count) / max(pipe, 1e-9)
        let speedups = zip(times["sequential"] ?? [], times["pipelined"] ?? []).map { $0 / max($1, 1e-9) }.sorted()
        if p.flag(.json) {
            let o: JSONValue = .object([
                ("task", .string(taskName)), ("model", .string(model)),
                ("inputs", .array(p.positionals.map { JSONValue.string($0) })),
                ("items", .int(count)), ("rounds", .int(rounds)),
                ("threads", .int(try p.value(.threads, as: Int.self))),
                ("workers", .int(workers)),
                ("withOutput", .bool(p.flag(.withOutput))),
                ("sequentialSeconds", .number(seq)), ("pipelinedSeconds", .number(pipe)),
                ("sequentialItemsPerSecond", .number(seqRate)), ("pipelinedItemsPerSecond", .number(pipeRate)),
                ("speedup", .number(pipeRate / max(seqRate, 1e-9))), ("speedupMin", .number(speedups.first ?? 0)),
                ("speedupMax", .number(speedups.last ?? 0)),
            ])
            console.out(o.text)
        } else {
            let inputs =
                p.positionals.count > 3 ? "\(p.positionals.count) inputs" : p.positionals.joined(separator: " ")
            console.out(
                "\(taskName) on \(inputs): \(count) items, \(rounds) rounds interleaved, medians"
                    + (p.flag(.withOutput) ? ", annotated output written" : ""))
            console.out(String(format: "sequential  %7.2f s  %7.2f items/s", seq, seqRate))
            console.out(
                String(
                    format:
                        "pipelined   %7.2f s  %7.2f items/s  (reader, %d worker%@ of %d inference thread%@, writer)",
                    pipe, pipeRate,
                    workers, workers == 1 ? "" : "s", try p.value(.threads, as: Int.self),
                    (try p.value(.threads, as: Int.self)) == 1 ? "" : "s"))
            console.out(
                String(
                    format: "speed-up    %7.2f×  (rounds: %.2f…%.2f)", pipeRate / max(seqRate, 1e-9),
                    speedups.first ?? 0, speedups.last ?? 0))
            console.out("pipelined run's stages (the stages overlap):\n" + stageTable)
        }
    }
}
