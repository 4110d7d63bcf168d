/// One box of a track in one frame: ground truth (an annotated object) or a tracker's output.
public struct TrackedBox: Sendable, Hashable {
    public var frame: Int
    public var id: Int
    public var box: Box

    public init(frame: Int, id: Int, box: Box) {
        self.frame = frame
        self.id = id
        self.box = box
    }
}
