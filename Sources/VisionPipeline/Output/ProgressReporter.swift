import Foundation

/// Progress on standard error: a bar with the rate and the time left when standard error is a
/// terminal, else a plain line every few percent (logs stay readable), nothing with `off`.
package final class ProgressReporter {
    package enum Style: String { case bar, lines, off }

    private let style: Style
    private let console: Console
    private var total: Int
    private var done = 0
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var lastLinePercent = -1

    package init(style: String?, total: Int, console: Console) {
        self.console = console
        switch style {
        case "bar": self.style = .bar
        case "lines": self.style = .lines
        case "off": self.style = .off
        default: self.style = isatty(2) != 0 ? .bar : .lines
        }
        self.total = total
    }

    /// More work became known (a video's frame count).
    package func grow(by n: Int) { total += n }

    /// One more unit done.
    package func step(_ label: String) {
        done += 1
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        let rate = Double(done) / max(elapsed, 1e-9)
        let left = total > done ? Double(total - done) / max(rate, 1e-9) : 0
        switch style {
        case .off: return
        case _ where total <= 1: return
        case .bar:
            guard now.timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
            lastDraw = now
            let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
            let filled = Int(fraction * 30)
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 30 - filled)
            let name = label.count > 40 ? "…" + label.suffix(39) : label
            emit(
                String(format: "\r\u{1B}[K%@ %d/%d  %.1f/s  ETA %@  %@", bar, done, total, rate, Self.clock(left), name)
            )
        case .lines:
            let percent = total > 0 ? done * 100 / total : 0
            guard percent / 10 != lastLinePercent / 10 || done == total else { return }
            lastLinePercent = percent
            emit(
                String(format: "progress: %d/%d (%d%%), %.1f/s, ETA %@\n", done, total, percent, rate, Self.clock(left))
            )
        }
    }

    /// Ends the bar's line.
    package func finish() { if style == .bar && done > 0 { emit("\n") } }

    private func emit(_ s: String) { console.write(.error, s) }

    package static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
