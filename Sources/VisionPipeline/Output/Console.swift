import Foundation
import Locking

/// Where the command line writes: standard output (results) and standard error (notes, progress,
/// errors). ``standard`` writes to the process's; tests run commands in-process with ``capturing()``.
package final class Console: Sendable {
    /// The two streams.
    package enum Stream: Sendable { case output, error }

    private let sink: @Sendable (Stream, String) -> Void

    /// A console that hands everything written to `sink`.
    package init(_ sink: @escaping @Sendable (Stream, String) -> Void) { self.sink = sink }

    /// The process's standard output and standard error.
    package static let standard = Console { stream, text in
        (stream == .output ? FileHandle.standardOutput : FileHandle.standardError).write(Data(text.utf8))
    }

    /// A console that keeps what is written, and what it kept.
    package static func capturing() -> (Console, Captured) {
        let captured = Captured()
        return (Console { stream, text in captured.append(stream, text) }, captured)
    }

    /// Writes `text` as it is (no newline added).
    package func write(_ stream: Stream, _ text: String) { sink(stream, text) }
    /// A line on standard output.
    package func out(_ line: String) { sink(.output, line + "\n") }
    /// A line on standard error.
    package func err(_ line: String) { sink(.error, line + "\n") }

    /// What a capturing console was given.
    package final class Captured: Sendable {
        private let text = Locked<(output: String, error: String)>(("", ""))
        package func append(_ stream: Stream, _ s: String) {
            text.withLock { stream == .output ? $0.output.append(s) : $0.error.append(s) }
        }
        /// Everything written to standard output.
        package var output: String { text.withLock { $0.output } }
        /// Everything written to standard error.
        package var error: String { text.withLock { $0.error } }
    }
}
