/// A detection in the core: an integer pixel box in the stored (unrotated) image and its categories.
public struct DetectionBox: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public var categories: [Category]
    /// Normalized keypoints in the stored image (raw SSD models with keypoints).
    public var keypoints: [(x: Float, y: Float)]

    public static func == (a: DetectionBox, b: DetectionBox) -> Bool {
        a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height && a.categories == b.categories
            && a.keypoints.map(\.x) == b.keypoints.map(\.x) && a.keypoints.map(\.y) == b.keypoints.map(\.y)
    }

    public init(x: Int, y: Int, width: Int, height: Int, categories: [Category], keypoints: [(x: Float, y: Float)] = []) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.categories = categories
        self.keypoints = keypoints
    }
}
