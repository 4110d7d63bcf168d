import Foundation

/// A keypoint of a detection, in normalized coordinates.
public struct NormalizedKeypoint: Equatable, Sendable {
    /// Where the keypoint is, normalized to [0, 1] in the unrotated picture.
    public let location: CGPoint
    /// The keypoint's name, when the model gives one.
    public let label: String?
    /// 0 when the model gives none.
    public let score: Float

    /// A keypoint.
    public init(location: CGPoint, label: String?, score: Float) {
        self.location = location
        self.label = label
        self.score = score
    }
}
