/// One object a class-agnostic localizer found: its box in the stored pixels of the picture and
/// its best class score.
public struct LocalizedBox: Equatable, Sendable {
    public var box: TrackBox
    public var score: Float

    public init(box: TrackBox, score: Float) {
        self.box = box
        self.score = score
    }
}
