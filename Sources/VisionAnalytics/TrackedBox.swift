/// One box of a track in one frame: ground truth (an annotated object) or a tracker's output.
public struct TrackedBox: Sendable, Hashable {
    /// The frame number.
    public var frame: Int
    /// The track (or object) id.
    public var id: Int
    /// Where, in pixels.
    public var box: Box

    /// Track `id`'s box in `frame`.
    public init(frame: Int, id: Int, box: Box) {
        self.frame = frame
        self.id = id
        self.box = box
    }
}
