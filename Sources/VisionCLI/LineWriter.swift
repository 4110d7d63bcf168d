import Foundation

/// Writes text lines to a file or standard output, buffered.
final class LineWriter {
    private let handle: FileHandle
    private let owned: Bool
    private var buffer = Data()

    /// Creates (or truncates) `path`.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
            throw CLIError.failure("cannot create \(path)")
        }
        handle = h
        owned = true
    }

    private init(handle: FileHandle) {
        self.handle = handle
        owned = false
    }

    static var standardOutput: LineWriter { LineWriter(handle: .standardOutput) }

    func write(_ line: String) throws {
        buffer.append(contentsOf: Array(line.utf8))
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
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
