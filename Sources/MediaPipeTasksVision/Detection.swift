import Foundation
import VisionCore

/// One detected object: its box in the stored picture's pixels and its categories (`MPPDetection`).
public final class Detection: NSObject, Sendable {
    /// Categories, best first.
    public let categories: [ResultCategory]
    /// The box in pixels of the unrotated picture.
    public let boundingBox: CGRect
    /// Keypoints, for models that give them (normalized coordinates).
    public let keypoints: [NormalizedKeypoint]?

    /// A detection.
    public init(categories: [ResultCategory], boundingBox: CGRect, keypoints: [NormalizedKeypoint]?) {
        self.categories = categories
        self.boundingBox = boundingBox
        self.keypoints = keypoints
    }

    convenience init(_ box: DetectionBox) {
        self.init(
            categories: box.categories.map(ResultCategory.init),
            boundingBox: CGRect(x: box.x, y: box.y, width: box.width, height: box.height),
            keypoints: box.keypoints.isEmpty
                ? nil
                : box.keypoints.map {
                    NormalizedKeypoint(location: CGPoint(x: CGFloat($0.x), y: CGFloat($0.y)), label: nil, score: 0)
                })
    }

    /// Same categories, box and keypoints (an extension: iOS compares identity).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? Detection else { return false }
        return o.categories == categories && o.boundingBox == boundingBox && o.keypoints == keypoints
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int {
        categories.count.hashValue ^ boundingBox.origin.x.hashValue ^ boundingBox.origin.y.hashValue
    }
}
