/// One detection handed to ``ObjectTracker``: a box, its localizer score, and optionally an
/// appearance signature (a normalized colour histogram, see ``AppearanceSignature``).
package struct TrackerDetection: Equatable, Sendable {
    package var box: TrackBox
    package var score: Double
    package var appearance: [Float]?

    package init(box: TrackBox, score: Double, appearance: [Float]? = nil) {
        self.box = box
        self.score = score
        self.appearance = appearance
    }
}
