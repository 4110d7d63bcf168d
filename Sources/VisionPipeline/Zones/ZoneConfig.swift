import VisionAnalytics

/// `track`'s lines and zones as given: `--line NAME=x1,y1,x2,y2` and `--zone NAME=x1,y1,x2,y2,x3,y3,…`
/// (repeatable; pixels of the frame, or fractions of its width and height when every coordinate is
/// within 0…1), the `--anchor` points that place an object and `--crossing-frames`.
package struct ZoneConfig: Sendable {
    /// A named line or polygon as typed.
    package struct Shape: Sendable {
        package var name: String
        package var points: [Point]
        /// Coordinates are fractions of the frame's size.
        package var normalized: Bool

        package init(name: String, points: [Point], normalized: Bool) {
            self.name = name
            self.points = points
            self.normalized = normalized
        }

        /// The points in pixels of a `width`×`height` frame.
        package func pixels(width: Int, height: Int) -> [Point] {
            normalized ? points.map { Point(x: $0.x * Double(width), y: $0.y * Double(height)) } : points
        }
    }

    package var lines: [Shape] = []
    package var zones: [Shape] = []
    package var anchors: [BoxAnchor] = [.bottomCenter]
    package var crossingFrames = 1
    package var forgetAfter = 300

    package init() {}

    package var isEmpty: Bool { lines.isEmpty && zones.isEmpty }

    /// The counter for a `width`×`height` video (nil when there are no lines or zones); the
    /// library's checks (zero-length lines, flat polygons, repeated names) as usage errors.
    package func counter(width: Int, height: Int) throws -> ZoneCounter? {
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
            throw PipelineError.usage(e.message)
        }
    }
}
