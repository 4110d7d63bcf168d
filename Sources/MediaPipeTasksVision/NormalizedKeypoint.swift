import Foundation

/// A keypoint of a detection, in normalized coordinates (`MPPNormalizedKeypoint`).
public final class NormalizedKeypoint: NSObject, Sendable {
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

    /// Same location, label and score, as iOS's `isEqual:` (which compares labels by pointer; here by value).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? NormalizedKeypoint else { return false }
        return o.location == location && o.label == label && o.score == score
    }

    /// A hash of the location, score and label, as iOS's.
    public override var hash: Int {
        location.x.hashValue ^ location.y.hashValue ^ score.hashValue ^ (label?.hashValue ?? 0)
    }
}
