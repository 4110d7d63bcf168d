/// One object a ``StreamDetectionSession`` reports: its box (stored pixels), localizer score,
/// tracking ID (stream mode) and labels (when a classifier is set).
package struct SessionObject: Equatable, Sendable {
    package var box: TrackBox
    package var score: Float
    package var trackingID: Int?
    package var labels: [Category]

    package init(box: TrackBox, score: Float, trackingID: Int?, labels: [Category]) {
        self.box = box
        self.score = score
        self.trackingID = trackingID
        self.labels = labels
    }
}
