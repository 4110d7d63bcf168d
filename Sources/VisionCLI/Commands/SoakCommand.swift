import FileInput
import Foundation
import LiteRT
import VisionPipeline

/// `vision-tasks soak`: loads, compiles, runs and destroys a model many times and reports the
/// process's resident memory before and after — a leak check that runs in a process of its own.
/// With `--live --image PICTURE`: a live stream under pressure instead (``LiveStreamSoak``).
enum SoakCommand {
    static let spec = CommandSpec(
        name: "soak", summary: "load, compile, run and destroy a model many times; report resident memory (leak check)",
        options: [
            TaskArguments.model,
            OptionSpec(
                .cycles, .integer(1...10_000_000), "N", default: "300",
                help: "cycles after 20 warm-up cycles (frames with --live)"),
            OptionSpec(.json, .flag, help: "one JSON object"),
            OptionSpec(
                .live, .flag,
                help: "a detector's live stream at 4x its processing rate instead (JSON: delivered, dropped, memory)"),
            OptionSpec(.image, .text, "PICTURE", help: "the picture streamed with --live"),
        ], run: run)

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        let path = try ModelZoo.resolve(try TaskArguments.requiredModel(p))
        let cycles = try p.value(.cycles, as: Int.self)
        if p.flag(.live) {
            guard let image = p.string(.image) else { throw CLIError.usage("soak --live needs --image PICTURE") }
            return try LiveStreamSoak.run(model: path, image: image, frames: cycles, console: console)
        }
        let json = p.flag(.json)
        func cycle() throws {
            let compiled = try CompiledModel(model: try Model(path: path))
            for i in compiled.inputs.indices {
                _ = try compiled.withInput(i) { $0.initializeMemory(as: UInt8.self, repeating: 1) }
            }
            try compiled.run()
            for i in compiled.outputs.indices { _ = try compiled.outputBytes(i) }
        }
        for _ in 0..<20 { try cycle() }  // let allocator pools settle
        let before = ProcessMemory.residentBytes()
        let t0 = Date()
        // Resident memory after each tenth of the cycles: a leak grows it in every window; the allocator's
        // and the kernel's own steps (a huge page collapsed) come once.
        var samples = [before]
        for i in 1...cycles {
            try cycle()
            if i % max(1, cycles / 10) == 0 { samples.append(ProcessMemory.residentBytes()) }
        }
        let after = ProcessMemory.residentBytes()
        let seconds = Date().timeIntervalSince(t0)
        if json {
            let windows = zip(samples.dropFirst(), samples).map { String($0 - $1) }.joined(separator: ",")
            console.out(
                "{\"cycles\":\(cycles),\"rss_before\":\(before),\"rss_after\":\(after),\"seconds\":\(seconds),"
                    + "\"rss_windows\":[\(windows)]}")
        } else {
            console.out("\(cycles) load/compile/run/destroy cycles in \(String(format: "%.1f", seconds)) s")
            console.out(
                "resident memory: \(before / 1024) KiB before, \(after / 1024) KiB after (\((after - before) / 1024) "
                    + "KiB growth)"
            )
        }
    }
}
