/// One detection handed to ``ObjectTracker``: a box, its localizer score, and optionally an
/// appearance signature (a normalized colour histogram, see ``AppearanceSignature``).
public struct TrackerDetection: Equatable, Sendable {
    public var box: TrackBox
    public var score: Double
    public var appearance: [Float]?

    public init(box: TrackBox, score: Double, appearance: [Float]? = nil) {
        self.box = box
        self.score = score
        self.appearance = appearance
    }
}
