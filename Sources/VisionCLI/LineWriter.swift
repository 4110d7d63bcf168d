import Foundation

/// Writes text lines to a file or standard output. With `flushEachLine` every line reaches the
/// file as it is written, so an interrupted run keeps every finished line.
final class LineWriter {
    private let handle: FileHandle
    private let owned: Bool
    private let flushEachLine: Bool
    private var buffer = Data()

    /// Creates (or truncates) `path`; with `append`, adds to its end instead. Opened in place
    /// (never replaced), so devices such as `/dev/null` and FIFOs work.
    init(path: String, append: Bool = false, flushEachLine: Bool = false) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o644)
        guard fd >= 0 else { throw CLIError.failure("cannot write \(path): \(String(cString: strerror(errno)))") }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        owned = true
        self.flushEachLine = flushEachLine
    }

    private init(handle: FileHandle, flushEachLine: Bool) {
        self.handle = handle
        owned = false
        self.flushEachLine = flushEachLine
    }

    static func standardOutput(flushEachLine: Bool = false) -> LineWriter { LineWriter(handle: .standardOutput, flushEachLine: flushEachLine) }

    func write(_ line: String) throws {
        buffer.append(contentsOf: Array(line.utf8))
        buffer.append(0x0A)
        if flushEachLine || buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: buffer) } catch { throw CLIError.failure("cannot write output: \(error.localizedDescription)") }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if owned { try? handle.close() }
    }
}
