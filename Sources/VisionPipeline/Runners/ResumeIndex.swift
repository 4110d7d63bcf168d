import Foundation

/// The records an earlier, interrupted run already wrote to a `--jsonl` file: `--resume` skips
/// them and appends the rest. Records that report an error are done again. A last line cut short
/// by the interruption is removed from the file first.
package struct ResumeIndex {
    package private(set) var done: Set<String> = []

    /// The key of a record: its source, and its frame number for video frames.
    package static func key(source: String, frame: Int?) -> String { frame.map { "\(source)\u{1F}\($0)" } ?? source }

    /// Reads `path` (a missing file is an empty index) and truncates an incomplete last line.
    package init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PipelineError.failure("cannot read \(path) to resume from it")
        }
        var complete = data.count
        if let last = data.last, last != 0x0A {
            complete = (data.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
            guard let h = FileHandle(forWritingAtPath: path) else {
                throw PipelineError.failure("cannot open \(path) to resume")
            }
            do {
                try h.truncate(atOffset: UInt64(complete))
                try h.close()
            } catch {
                throw PipelineError.failure(
                    "cannot remove the incomplete last record of \(path): \(error.localizedDescription)")
            }
        }
        for line in data.prefix(complete).split(separator: 0x0A) where !line.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let source = object["source"] as? String
            else { continue }
            if object["error"] != nil { continue }
            done.insert(Self.key(source: source, frame: object["frame"] as? Int))
        }
    }

    package func contains(source: String, frame: Int?) -> Bool { done.contains(Self.key(source: source, frame: frame)) }
}
