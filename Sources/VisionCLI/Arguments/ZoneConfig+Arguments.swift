import VisionAnalytics
import VisionPipeline

/// `--line`, `--zone`, `--anchor`, `--crossing-frames`, `--forget-after`.
extension ZoneConfig {

    init(_ p: ParsedCommand) throws {
        self.init()
        lines = try p.all(.line).map { try Self.shape($0, option: "line") }
        zones = try p.all(.zone).map { try Self.shape($0, option: "zone") }
        anchors = try p.list(.anchor).map { word in
            guard let anchor = BoxAnchor(rawValue: word) else {
                let hint =
                    Suggestion.closest(to: word, in: BoxAnchor.allCases.map(\.rawValue)).map {
                        " — did you mean \($0)?"
                    } ?? ""
                throw CLIError.usage(
                    "--anchor: unknown point '\(word)'\(hint) (one of "
                        + BoxAnchor.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            return anchor
        }
        crossingFrames = try p.value(.crossingFrames, as: Int.self)
        forgetAfter = try p.value(.forgetAfter, as: Int.self)
        if (p.has(.anchor) || p.has(.crossingFrames) || p.has(.forgetAfter)) && isEmpty {
            throw CLIError.usage(
                "--anchor, --crossing-frames and --forget-after apply to lines and zones: add --line NAME=x1,y1,x2,y2 "
                    + "or --zone NAME=x1,y1,…"
            )
        }
        // zero-length lines, flat polygons, repeated names: now, not at the first frame
        _ = try counter(width: 1000, height: 1000)
    }

    /// Parses `NAME=x1,y1,…`: a line takes exactly two points, a zone at least three.
    static func shape(_ text: String, option: String) throws -> Shape {
        let form = option == "line" ? "NAME=x1,y1,x2,y2" : "NAME=x1,y1,x2,y2,x3,y3,…"
        guard let eq = text.firstIndex(of: "=") else {
            throw CLIError.usage("--\(option) \(text): name it and give its points: \(form)")
        }
        let name = String(text[..<eq]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw CLIError.usage("--\(option) \(text): the name before '=' is empty (\(form))") }
        var numbers: [Double] = []
        for word in text[text.index(after: eq)...].split(separator: ",", omittingEmptySubsequences: false) {
            let w = word.trimmingCharacters(in: .whitespaces)
            guard let v = Double(w), v.isFinite else {
                throw CLIError.usage("--\(option) \(name): '\(w)' is not a number (\(form))")
            }
            numbers.append(v)
        }
        if option == "line", numbers.count != 4 {
            throw CLIError.usage(
                "--line \(name): a line takes two points, x1,y1,x2,y2 (4 numbers), got \(numbers.count)")
        }
        if option == "zone", numbers.count < 6 || numbers.count % 2 != 0 {
            throw CLIError.usage(
                "--zone \(name): a zone takes at least three points as x,y pairs, got \(numbers.count) numbers")
        }
        let points = stride(from: 0, to: numbers.count, by: 2).map { Point(x: numbers[$0], y: numbers[$0 + 1]) }
        return Shape(name: name, points: points, normalized: numbers.allSatisfy { (0...1).contains($0) })
    }
}
