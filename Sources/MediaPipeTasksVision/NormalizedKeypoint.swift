import Foundation

/// A keypoint of a detection, in normalized coordinates.
public struct NormalizedKeypoint: Equatable, Sendable {
    public let location: CGPoint
    public let label: String?
    /// 0 when the model gives none.
    public let score: Float

    public init(location: CGPoint, label: String?, score: Float) {
        self.location = location
        self.label = label
        self.score = score
    }
}
