import Foundation
import VisionCore

/// One detected object: its box in the stored picture's pixels and its categories.
public struct Detection: Equatable, Sendable {
    /// Categories, best first.
    public let categories: [ResultCategory]
    /// The box in pixels of the unrotated picture.
    public let boundingBox: CGRect
    /// Keypoints, for models that give them (normalized coordinates).
    public let keypoints: [NormalizedKeypoint]?

    /// A detection.
    public init(categories: [ResultCategory], boundingBox: CGRect, keypoints: [NormalizedKeypoint]? = nil) {
        self.categories = categories
        self.boundingBox = boundingBox
        self.keypoints = keypoints
    }

    init(_ box: DetectionBox) {
        self.init(categories: box.categories.map(ResultCategory.init),
                  boundingBox: CGRect(x: box.x, y: box.y, width: box.width, height: box.height),
                  keypoints: box.keypoints.isEmpty ? nil
                      : box.keypoints.map { NormalizedKeypoint(location: CGPoint(x: CGFloat($0.x), y: CGFloat($0.y)), label: nil, score: 0) })
    }
}
