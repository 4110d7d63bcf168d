import Foundation
import VisionAnalytics
import VisionPipeline

/// Reading the app's own `--jsonl` records back (for `eval` and `zones`): one JSON object a line,
/// boxes in the API's `originX`/`originY`/`width`/`height` form.
enum JSONRecords {
    /// Every non-empty line of the file as an object, with its 1-based line number.
    static func read(_ path: String) throws -> [(line: Int, record: [String: Any])] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw CLIError.usage("cannot read \(path)")
        }
        var out: [(Int, [String: Any])] = []
        for (n, line) in text.split(separator: "\n").enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CLIError.usage("\(path):\(n + 1): not a JSON record")
            }
            out.append((n + 1, record))
        }
        return out
    }

    /// A record's box (`boundingBox` or `frame`), nil unless all four numbers are there and finite.
    static func box(_ any: Any?) -> Box? {
        guard let b = any as? [String: Any], let x = (b["originX"] as? NSNumber)?.doubleValue,
            let y = (b["originY"] as? NSNumber)?.doubleValue,
            let w = (b["width"] as? NSNumber)?.doubleValue, let h = (b["height"] as? NSNumber)?.doubleValue,
            [x, y, w, h].allSatisfy(\.isFinite)
        else { return nil }
        return Box(x: x, y: y, width: w, height: h)
    }
}
