import Foundation

/// Writes text lines to a file or standard output. With `flushEachLine` every line reaches the
/// file as it is written, so an interrupted run keeps every finished line.
package final class LineWriter {
    private let handle: FileHandle?
    private let console: Console?
    private let owned: Bool
    private let flushEachLine: Bool
    private var buffer = Data()

    /// Creates (or truncates) `path`; with `append`, adds to its end instead. Opened in place
    /// (never replaced), so devices such as `/dev/null` and FIFOs work.
    package init(path: String, append: Bool = false, flushEachLine: Bool = false) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o644)
        guard fd >= 0 else { throw PipelineError.failure("cannot write \(path): \(String(cString: strerror(errno)))") }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        console = nil
        owned = true
        self.flushEachLine = flushEachLine
    }

    private init(console: Console, flushEachLine: Bool) {
        handle = nil
        self.console = console
        owned = false
        self.flushEachLine = flushEachLine
    }

    /// Lines to `console`'s standard output.
    package static func standardOutput(_ console: Console, flushEachLine: Bool = false) -> LineWriter {
        LineWriter(console: console, flushEachLine: flushEachLine)
    }

    package func write(_ line: String) throws {
        buffer.append(contentsOf: Array(line.utf8))
        buffer.append(0x0A)
        if flushEachLine || buffer.count >= 1 << 16 { try flush() }
    }

    package func flush() throws {
        guard !buffer.isEmpty else { return }
        if let console {
            console.write(.output, String(decoding: buffer, as: UTF8.self))
        } else if let handle {
            do { try handle.write(contentsOf: buffer) } catch {
                throw PipelineError.failure("cannot write output: \(error.localizedDescription)")
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    package func close() throws {
        try flush()
        if owned { try? handle?.close() }
    }
}
