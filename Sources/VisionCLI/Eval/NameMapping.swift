import Foundation
import VisionPipeline

/// Model label → dataset category: by name (case, spaces, underscores and dashes ignored), or as a
/// `--map` file says (`model name=dataset name` lines; `#` starts a comment).
struct NameMapping {
    private var byName: [String: Int] = [:]
    private var explicit: [String: Int] = [:]

    init(file: String?, categories: [Int: String]) throws {
        for (id, name) in categories { byName[Self.normalized(name)] = id }
        guard let file else { return }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for (n, raw) in text.split(separator: "\n").enumerated() {
            let line =
                raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let id = byName[Self.normalized(parts[1])] else {
                throw CLIError.usage(
                    "\(file):\(n + 1): expected 'model name=dataset name' with a category of the dataset")
            }
            explicit[Self.normalized(parts[0])] = id
        }
    }

    /// The dataset category for a model label, or nil when it has none (the detection is left out).
    func category(for label: String) -> Int? {
        let key = Self.normalized(label)
        return explicit[key] ?? byName[key]
    }

    static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { !" _-".contains($0) })
    }
}
