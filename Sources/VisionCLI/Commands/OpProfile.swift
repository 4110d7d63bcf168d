import Foundation
import Imaging
import LiteRT
import MediaPipeTasksVision
import VisionCore
import VisionPipeline

/// `bench --profile`: where a model's run spends its time, op by op, from LiteRT's profiler — with
/// VisionTasks' kernels (the default model) and with LiteRT's own kernels only, in interleaved rounds
/// of the same process on the same preprocessed picture. Per op kind: the median milliseconds per run
/// and the share of the run; what the run spends outside the ops (LiteRT's run bookkeeping and the
/// hops between delegate partitions); the ten slowest ops; the share of the run left in libLiteRt.
enum OpProfile {
    /// One configuration's runs.
    struct Column {
        let title: String
        let compiled: CompiledModel
        /// Per op key, its time in each run; per run, the whole run's time.
        var times: [String: [Double]] = [:]
        var runs: [Double] = []
        /// Per run, the share of it spent outside VisionTasks' kernels (in libLiteRt).
        var liteRTShares: [Double] = []
        /// Per op kind (ops of one kind added up in each run).
        var kinds: [String: [Double]] = [:]
        /// Kinds run by VisionTasks' kernels.
        var ours: Set<String> = []
    }

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        let model = try ModelZoo.resolve(try TaskArguments.requiredModel(p))
        guard let imagePath = p.string(.image) ?? p.positionals.first else {
            throw CLIError.usage("bench --profile needs --image PICTURE")
        }
        let runs = try p.value(.runs, as: Int.self)
        let warmup = try p.value(.warmup, as: Int.self)
        let threads = try p.value(.threads, as: Int.self)
        let fastHybrid = p.flag(.fastHybrid)
        let image = try MPImage(contentsOfFile: imagePath, orientation: .up)
        let ours = try ModelResources(path: model, optimizeHybridModels: fastHybrid)
        let format = try BenchCommand.inputFormat(model: model, resources: ours, threads: threads)
        var configurations = [("VisionTasks", ours)]
        if !ours.customOps.isEmpty {
            let builtIn = try ModelResources(
                path: model, optimizeHybridModels: fastHybrid, kernels: .builtin)
            configurations.append(("LiteRT only", builtIn))
        }
        var columns: [Column] = []
        for (title, resources) in configurations {
            let compiled = try CompiledModel(
                model: try resources.runtimeModel, threads: threads, customOps: resources.customOps, profiling: true)
            let preprocessor = ImagePreprocessor()
            try compiled.withInput(0) { try preprocessor.process(image.bitmap, format: format, into: $0) }
            _ = try compiled.profile(runs: max(warmup, 1))
            columns.append(Column(title: title, compiled: compiled))
        }
        // Rounds interleaved between the configurations, so that machine noise hits them alike.
        let rounds = min(5, runs)
        for round in 0..<rounds {
            let count = runs / rounds + (round < runs % rounds ? 1 : 0)
            for c in columns.indices {
                add(try columns[c].compiled.profile(runs: count), to: &columns[c])
            }
        }
        if p.flag(.json) {
            console.out(
                json(columns, model: model, image: imagePath, format: format, threads: threads, runs: runs).text)
        } else {
            table(columns, model: model, image: imagePath, format: format, threads: threads, runs: runs, console)
        }
    }

    /// The kind an op is counted under: XNNPACK's operator name, or the kernel of a custom op's code.
    static func kind(_ op: ProfiledOp) -> (name: String, ours: Bool) {
        if op.place == .delegate { return ("XNNPACK " + op.name, false) }
        for (prefix, title) in [
            ("VisionTasksQuantizedConv", "uint8 1x1 convolution"),
            ("VisionTasksQuantizedSpatialConv", "uint8 spatial convolution (im2col + GEMM)"),
            ("VisionTasksHybridConvGroup", "hybrid 1x1 convolutions into a concatenation"),
            ("VisionTasksHybridConvDepthwise", "hybrid 1x1 convolution into a float depthwise one"),
            ("VisionTasksHybridConv", "hybrid 1x1 convolution"),
            ("VisionTasksHybridDepthwise", "hybrid depthwise convolution"),
            ("VisionTasksQuantizedDepthwise", "uint8/int8 depthwise convolution"),
            ("VisionTasksDetectionPostProcess", "detection post-processing"),
            ("VisionTasksRequantize", "8-bit requantization (QUANTIZE)"),
        ] where op.name.hasPrefix(prefix) {
            return ("VisionTasks " + title, true)
        }
        return ("LiteRT " + op.name, false)
    }

    static func add(_ ops: [ProfiledOp], to column: inout Column) {
        var perRun: [Int: (total: Double, kinds: [String: Double])] = [:]
        for op in ops {
            if op.place == .run {
                perRun[op.run, default: (0, [:])].total = op.microseconds / 1000
                continue
            }
            let (name, ours) = kind(op)
            if ours { column.ours.insert(name) }
            perRun[op.run, default: (0, [:])].kinds[name, default: 0] += op.microseconds / 1000
            let key =
                op.place == .delegate ? "XNNPACK \(op.partition).\(op.node): \(op.name)" : "node \(op.node): \(op.name)"
            column.times[key, default: []].append(op.microseconds / 1000)
        }
        for run in perRun.keys.sorted() {
            guard let entry = perRun[run], entry.total > 0 else { continue }
            column.runs.append(entry.total)
            for (name, ms) in entry.kinds { column.kinds[name, default: []].append(ms) }
            let inOps = entry.kinds.values.reduce(0, +)
            column.kinds[outside, default: []].append(max(0, entry.total - inOps))
            let oursMs = entry.kinds.filter { column.ours.contains($0.key) }.values.reduce(0, +)
            column.liteRTShares.append(max(0, 1 - oursMs / entry.total))
        }
    }

    static let outside = "between ops (run bookkeeping, partition hops)"

    /// A kind's median per run, counting runs where it did not appear as 0.
    static func median(_ column: Column, _ kind: String) -> Double {
        var xs = column.kinds[kind] ?? []
        xs += [Double](repeating: 0, count: max(0, column.runs.count - xs.count))
        return BenchCommand.median(xs)
    }

    /// Kinds ordered by the first column's time, then the others'.
    static func kinds(_ columns: [Column]) -> [String] {
        var all = Set<String>()
        for c in columns { all.formUnion(c.kinds.keys) }
        all.remove(outside)
        return all.sorted { a, b in
            let ta = columns.map { median($0, a) }, tb = columns.map { median($0, b) }
            return ta.lexicographicallyPrecedes(tb, by: >) || (ta == tb && a < b)
        }
    }

    /// The ten slowest ops of a column, by median.
    static func top(_ column: Column, _ count: Int = 10) -> [(key: String, ms: Double)] {
        var ops: [(key: String, ms: Double)] = []
        for (key, values) in column.times { ops.append((key, BenchCommand.median(values))) }
        ops.sort { a, b in a.ms != b.ms ? a.ms > b.ms : a.key < b.key }
        return Array(ops.prefix(count))
    }

    /// The share of a column's run spent in libLiteRt (every kind but VisionTasks' kernels, and the time
    /// between ops): the median over the runs of each run's share.
    static func liteRTShare(_ column: Column) -> Double { BenchCommand.median(column.liteRTShares) }

    static func table(
        _ columns: [Column], model: String, image: String, format: TensorFormat, threads: Int, runs: Int,
        _ console: Console
    ) {
        console.out("model        \(model)")
        console.out("image        \(image) → input \(format.width)x\(format.height)")
        console.out(
            "threads      \(threads), \(runs) profiled runs per column in rounds, medians per run (LiteRT's profiler)")
        console.out("kernels      " + BuildInfo.kernels.dropFirst("kernels: ".count))
        let width = 58
        var header = "".padding(toLength: width, withPad: " ", startingAt: 0)
        for c in columns { header += SizeSweep.pad(c.title, 20) }
        console.out(header)
        for kind in kinds(columns) + [outside] {
            var line = String(kind.prefix(width - 1)).padding(toLength: width, withPad: " ", startingAt: 0)
            for c in columns {
                let ms = median(c, kind), whole = BenchCommand.median(c.runs)
                let cell =
                    c.kinds[kind] == nil ? "–" : String(format: "%.3f ms %5.1f%%", ms, whole > 0 ? 100 * ms / whole : 0)
                line += SizeSweep.pad(cell, 20)
            }
            console.out(line)
        }
        var total = "whole run".padding(toLength: width, withPad: " ", startingAt: 0)
        var share = "share of the run in libLiteRt".padding(toLength: width, withPad: " ", startingAt: 0)
        for c in columns {
            total += SizeSweep.pad(String(format: "%.3f ms", BenchCommand.median(c.runs)), 20)
            share += SizeSweep.pad(String(format: "%.1f%%", 100 * liteRTShare(c)), 20)
        }
        console.out(total)
        console.out(share)
        for c in columns {
            console.out("slowest ops, \(c.title):")
            for (key, ms) in top(c) { console.out(String(format: "  %8.3f ms  ", ms) + key) }
        }
    }

    static func json(
        _ columns: [Column], model: String, image: String, format: TensorFormat, threads: Int, runs: Int
    ) -> JSONValue {
        let items = columns.map { c -> JSONValue in
            let whole = BenchCommand.median(c.runs)
            let kindItems = (kinds([c]) + [outside]).map { kind in
                JSONValue.object([
                    ("kind", .string(kind)), ("ms", .number(median(c, kind))),
                    ("share", .number(whole > 0 ? median(c, kind) / whole : 0)), ("ours", .bool(c.ours.contains(kind))),
                ])
            }
            return JSONValue.object([
                ("title", .string(c.title)), ("run_ms", .number(whole)), ("litert_share", .number(liteRTShare(c))),
                ("kinds", .array(kindItems)),
                ("slowest", .array(top(c).map { .object([("op", .string($0.key)), ("ms", .number($0.ms))]) })),
                ("ops", .array(top(c, .max).map { .object([("op", .string($0.key)), ("ms", .number($0.ms))]) })),
            ])
        }
        return JSONValue.object([
            ("model", .string(model)), ("image", .string(image)),
            ("input", .array([.int(format.width), .int(format.height)])), ("threads", .int(threads)),
            ("runs", .int(runs)), ("columns", .array(items)),
        ])
    }
}
