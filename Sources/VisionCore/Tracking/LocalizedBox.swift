/// One object a class-agnostic localizer found: its box in the stored pixels of the picture and
/// its best class score.
package struct LocalizedBox: Equatable, Sendable {
    package var box: TrackBox
    package var score: Float

    package init(box: TrackBox, score: Float) {
        self.box = box
        self.score = score
    }
}
