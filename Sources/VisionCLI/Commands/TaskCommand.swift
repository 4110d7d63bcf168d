import Foundation
import Video
import VisionPipeline

/// Runs one of the task commands (`detect`, `classify`, `label`, `track`) on its inputs: pictures,
/// folders, globs, `-` (paths on standard input), videos, or `--live SOURCE`; prints the summary and
/// per-stage timing, and turns failures into the exit status.
enum TaskCommand {
    static func run(_ p: ParsedCommand, _ console: Console, makeTask: () throws -> BatchTask) throws {
        let outputConfig = try OutputConfig(p)
        let quiet = outputConfig.quiet
        if let live = try LiveConfig(p) {
            let task = try makeTask()
            let s: LiveRunner.Summary
            do { s = try LiveRunner(task: task, live: live, output: outputConfig, console: console).run() } catch let e
                as VideoError
            {
                let f = ItemFailure(e)
                throw CLIError.task(
                    code: f.code,
                    message: e.message
                        + (live.source.hasPrefix("/dev/")
                            ? " (is the camera connected, and may this user open it?)" : ""))
            }
            try task.finish()
            if !quiet {
                console.err(
                    String(
                        format: "live: %d frames read, %d delivered, %d dropped (%.1f s, %.1f delivered/s)",
                        s.read, s.delivered, s.dropped, s.seconds, Double(s.delivered) / max(s.seconds, 1e-9)))
                // The stream's line and zone counts (the runner's threads are done: the task is ours again).
                if let z = task.videoEnded()?.zoneSummary {
                    console.err(([live.source + ":"] + z.lines.map { "  " + $0 }).joined(separator: "\n"))
                }
            }
            if let f = s.firstFailure {
                throw CLIError.task(
                    code: Int(f.exitStatus), message: "\(s.failures) frame(s) failed; first: \(f.message)")
            }
            return
        }
        let batch = try BatchConfig(p)
        guard !batch.inputs.isEmpty else {
            throw CLIError.usage(
                "\(p.spec.name) needs inputs: pictures, folders, videos, globs or - (paths on stdin); or --live SOURCE")
        }
        var items = try InputCollector.collect(batch.inputs)
        let shard = try Shard.resolve(
            flag: batch.shard, count: batch.shardCount, environment: ProcessInfo.processInfo.environment)
        if let shard {
            let all = items.count
            items = items.filter(shard.contains)
            if !quiet {
                console.err("shard \(shard.index)/\(shard.count) (\(shard.origin)): \(items.count) of \(all) inputs")
            }
        }
        let tasks = try batch.tasks(items: items, makeTask)
        let task = tasks[0]
        let runner = try BatchRunner(tasks: tasks, items: items, batch: batch, output: outputConfig, console: console)
        let s = try runner.run()
        try task.finish()
        if !quiet {
            var line = "\(p.spec.name): " + runner.summaryLine
            if let note = task.summaryNote, s.frames > 0 { line += ", " + note }
            if runner.tasks.count > 1 { line += ", \(runner.tasks.count) workers" }
            console.err(line)
            for z in s.zones { console.err(([z.source + ":"] + z.lines.map { "  " + $0 }).joined(separator: "\n")) }
            console.err(s.stages.table())
            for path in s.written { console.err("wrote \(path)") }
            if let r = outputConfig.report { console.err("wrote \(r)") }
        }
        if let (source, f) = s.firstFailure {
            let more = s.failures > 1 ? " (\(s.failures) inputs failed; the others were processed)" : ""
            throw CLIError.task(code: Int(f.exitStatus), message: "\(source): \(f.message)\(more)")
        }
    }
}
