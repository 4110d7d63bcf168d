/// One object a ``StreamDetectionSession`` reports: its box (stored pixels), localizer score,
/// tracking ID (stream mode) and labels (when a classifier is set).
public struct SessionObject: Equatable, Sendable {
    public var box: TrackBox
    public var score: Float
    public var trackingID: Int?
    public var labels: [Category]

    public init(box: TrackBox, score: Float, trackingID: Int?, labels: [Category]) {
        self.box = box
        self.score = score
        self.trackingID = trackingID
        self.labels = labels
    }
}
