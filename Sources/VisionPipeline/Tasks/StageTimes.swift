import Foundation

/// Seconds spent in each stage of a run (decode, preprocess, inference, post-process, output),
/// for the summary at the end and the report.
package struct StageTimes {
    package static let order = ["decode", "preprocess", "inference", "postprocess", "task", "output"]
    package private(set) var seconds: [String: Double] = [:]
    package private(set) var counts: [String: Int] = [:]

    package mutating func add(_ stage: String, _ s: Double) {
        seconds[stage, default: 0] += s
        counts[stage, default: 0] += 1
    }

    /// Rows `(stage, total seconds, milliseconds per item)` in pipeline order.
    package var rows: [(stage: String, total: Double, perItem: Double)] {
        Self.order.compactMap { s in
            guard let t = seconds[s], let n = counts[s], n > 0 else { return nil }
            return (s, t, t * 1000 / Double(n))
        }
    }

    /// The table printed at the end of a run.
    package func table() -> String {
        (["  stage          total s   ms/item"]
            + rows.map {
                "  " + $0.stage.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: " %8.2f  %8.2f", $0.total, $0.perItem)
            })
            .joined(separator: "\n")
    }
}
