import Foundation

/// One box the class-agnostic localizer found, before tracking and classification (an extension,
/// for tools that compare trackers on the same detections).
public struct LocalizedObject: Equatable, Sendable {
    /// The box, in the same coordinates as ``Object/frame``.
    public let box: CGRect
    /// The localizer's score (its best class score).
    public let score: Float

    /// A box found by the localizer and its score.
    public init(box: CGRect, score: Float) {
        self.box = box
        self.score = score
    }
}
