import Foundation
import Imaging
import VisionCore
import VisionPipeline

/// `bench --sizes`: the model's preprocessing (MediaPipe's warp into its input tensor) timed on
/// pictures of many sizes — odd and even, portrait and landscape, 64 to 2048 pixels a side, in three
/// rounds over the grid (a burst of noise hits one round of a size, not all its runs), each call
/// with a new preprocessor (its sampling plan made for the size, as for a photo) — so that
/// no size takes a slow path unnoticed. Each size's median is compared with its neighbours' (the next
/// smaller and larger width at the same height, and height at the same width); the worst ratio is
/// printed, and every size above 1.5× its neighbours is named.
enum SizeSweep {
    /// The sides swept: powers of two and their odd neighbours, common camera sizes, and the sizes
    /// once found slow (850, 929).
    static let sides = [
        64, 127, 128, 300, 301, 511, 512, 640, 767, 768, 850, 851, 928, 929, 930, 1023, 1024, 1280, 1920, 2047, 2048,
    ]

    /// Warm-up runs per size and round when `--warmup` is not given.
    static let warmup = 2

    struct Row {
        var width: Int, height: Int
        var seconds: Double
        var separable: Bool
    }

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        let model = try ModelZoo.resolve(try TaskArguments.requiredModel(p))
        let runs = try p.value(.runs, as: Int.self)
        // Each of the grid's sizes warms up on its own: `--warmup` when given (at most 5), else 2.
        let warmup = p.has(.warmup) ? min(try p.value(.warmup, as: Int.self), 5) : Self.warmup
        let threads = try p.value(.threads, as: Int.self)
        let format = try BenchCommand.inputFormat(
            model: model, resources: try ModelResources(path: model, optimizeHybridModels: false), threads: threads)
        var scratch = [UInt8](repeating: 0, count: format.byteCount)
        // Three rounds over the whole grid, each size's runs split between them: a burst of machine noise
        // lands in one round of a size, not in all of its runs.
        let rounds = 3
        var times = [[Double]](repeating: [], count: sides.count * sides.count)
        for _ in 0..<rounds {
            for (r, height) in sides.enumerated() {
                for (c, width) in sides.enumerated() {
                    let bitmap = try picture(width: width, height: height)
                    // A new preprocessor each time: its sampling plan is made for the size, as for a photo.
                    times[r * sides.count + c] += try BenchCommand.time(max(1, runs / rounds), warmup) {
                        let preprocessor = ImagePreprocessor()
                        preprocessor.threads = threads
                        try scratch.withUnsafeMutableBytes {
                            try preprocessor.process(bitmap, format: format, into: $0)
                        }
                    }
                }
            }
        }
        var rows: [Row] = []
        for (r, height) in sides.enumerated() {
            for (c, width) in sides.enumerated() {
                rows.append(
                    Row(
                        width: width, height: height, seconds: BenchCommand.median(times[r * sides.count + c]),
                        separable: ImagePreprocessor.isSeparable(
                            width: width, height: height, dstWidth: format.width, dstHeight: format.height)))
            }
        }
        let ratios = neighbourRatios(rows)
        let worst = ratios.indices.max { ratios[$0] < ratios[$1] }
        let outliers = ratios.indices.filter { ratios[$0] > 1.5 }
        if p.flag(.json) {
            let items = rows.indices.map { i in
                JSONValue.object([
                    ("width", .int(rows[i].width)), ("height", .int(rows[i].height)),
                    ("preprocess_ms", .number(rows[i].seconds * 1000)), ("separable", .bool(rows[i].separable)),
                    ("over_neighbours", .number(ratios[i])),
                ])
            }
            console.out(
                JSONValue.object([
                    ("model", .string(model)), ("input", .array([.int(format.width), .int(format.height)])),
                    ("threads", .int(threads)), ("runs", .int(runs)), ("sizes", .array(items)),
                    ("worst_over_neighbours", .number(worst.map { ratios[$0] } ?? 0)),
                    ("outliers", .int(outliers.count)),
                ]).text)
            return
        }
        console.out("model        \(model) → input \(format.width)x\(format.height)")
        console.out(
            "threads      \(threads), \(runs) runs in \(rounds) rounds over the grid, medians; preprocessing ms")
        console.out("rows: height; columns: width; * the per-pixel path (positions not separable)")
        console.out(String(repeating: " ", count: 6) + sides.map { pad(String($0), 7) }.joined())
        for (r, height) in sides.enumerated() {
            let cells = sides.indices.map { c -> String in
                let row = rows[r * sides.count + c]
                return pad(String(format: "%.2f", row.seconds * 1000) + (row.separable ? " " : "*"), 7)
            }
            console.out(pad(String(height), 6) + cells.joined())
        }
        if let worst {
            let row = rows[worst]
            console.out(
                String(
                    format: "worst over its neighbours: %dx%d, %.2fx (%.3f ms)", row.width, row.height, ratios[worst],
                    row.seconds * 1000))
        }
        console.out(
            outliers.isEmpty
                ? "no size above 1.5x its neighbours"
                : "above 1.5x its neighbours: "
                    + outliers.map { "\(rows[$0].width)x\(rows[$0].height)" }.joined(separator: ", "))
    }

    /// Each size's time over the median of its neighbours' in the grid.
    static func neighbourRatios(_ rows: [Row]) -> [Double] {
        let n = sides.count
        return rows.indices.map { i in
            let r = i / n, c = i % n
            var around: [Double] = []
            for (dr, dc) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                guard (0..<n).contains(r + dr) && (0..<n).contains(c + dc) else { continue }
                around.append(rows[(r + dr) * n + c + dc].seconds)
            }
            let m = BenchCommand.median(around)
            return m > 0 ? rows[i].seconds / m : 1
        }
    }

    /// A picture of that size with a pattern in every channel (the time does not depend on the content).
    static func picture(width: Int, height: Int) throws -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices { buffer[i] = UInt8(truncatingIfNeeded: i &* 31 &+ i >> 11) }
        }
        return try Bitmap(width: width, height: height, format: .rgb8, pixels: pixels)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
