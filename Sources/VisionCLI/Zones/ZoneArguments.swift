import VisionAnalytics

/// `track`'s lines and zones as given: `--line NAME=x1,y1,x2,y2` and `--zone NAME=x1,y1,x2,y2,x3,y3,…`
/// (repeatable; pixels of the frame, or fractions of its width and height when every coordinate is
/// within 0…1), the `--anchor` points that place an object and `--crossing-frames`.
struct ZoneArguments: Sendable {
    /// A named line or polygon as typed.
    struct Shape: Sendable {
        var name: String
        var points: [Point]
        /// Coordinates are fractions of the frame's size.
        var normalized: Bool

        /// The points in pixels of a `width`×`height` frame.
        func pixels(width: Int, height: Int) -> [Point] {
            normalized ? points.map { Point(x: $0.x * Double(width), y: $0.y * Double(height)) } : points
        }
    }

    var lines: [Shape] = []
    var zones: [Shape] = []
    var anchors: [BoxAnchor] = [.bottomCenter]
    var crossingFrames = 1
    var forgetAfter = 300

    static let options = [
        OptionSpec(
            .line, .text, "NAME=X1,Y1,X2,Y2",
            help: "count objects crossing this line, in and out per class (repeatable; pixels, or 0…1 fractions)"),
        OptionSpec(
            .zone, .text, "NAME=X1,Y1,X2,Y2,X3,Y3,…",
            help: "a polygon zone: occupancy, visitors, dwell time (repeatable; pixels, or 0…1 fractions)"),
        OptionSpec(
            .anchor, .list, "POINT[,POINT]", default: "bottom-center",
            help: "the box point(s) that place an object for lines and zones: "
                + BoxAnchor.allCases.map(\.rawValue).joined(separator: ", ")),
        OptionSpec(
            .crossingFrames, .integer(1...1000), "N", default: "1",
            help: "frames an object must be seen on the other side of a line to count"),
        OptionSpec(
            .forgetAfter, .integer(1...1_000_000), "N", default: "300",
            help:
                "frames a track may be missing and still count when it reappears across a line (supervision's "
                + "LineZone: 2)"
        ),
    ]

    init() {}

    init(_ p: ParsedCommand) throws {
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
        crossingFrames = p.int(.crossingFrames) ?? 1
        forgetAfter = p.int(.forgetAfter) ?? 300
        if (p.has(.anchor) || p.has(.crossingFrames) || p.has(.forgetAfter)) && isEmpty {
            throw CLIError.usage(
                "--anchor, --crossing-frames and --forget-after apply to lines and zones: add --line NAME=x1,y1,x2,y2 "
                    + "or --zone NAME=x1,y1,…"
            )
        }
        // zero-length lines, flat polygons, repeated names: now, not at the first frame
        _ = try counter(width: 1000, height: 1000)
    }

    var isEmpty: Bool { lines.isEmpty && zones.isEmpty }

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

    /// The counter for a `width`×`height` video (nil when there are no lines or zones); the
    /// library's checks (zero-length lines, flat polygons, repeated names) as usage errors.
    func counter(width: Int, height: Int) throws -> ZoneCounter? {
        guard !isEmpty else { return nil }
        do {
            return try ZoneCounter(
                lines: lines.map { s in
                    let p = s.pixels(width: width, height: height)
                    return try LineZone(
                        name: s.name, start: p[0], end: p[1], anchors: anchors, minimumCrossingFrames: crossingFrames,
                        forgetAfterFrames: forgetAfter)
                },
                zones: zones.map {
                    try PolygonZone(name: $0.name, polygon: $0.pixels(width: width, height: height), anchors: anchors)
                })
        } catch let e as AnalyticsError {
            throw CLIError.usage(e.message)
        }
    }
}
