/// A detection in the core: an integer pixel box in the stored (unrotated) image and its categories.
package struct DetectionBox: Equatable, Sendable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int
    package var categories: [Category]
    /// Normalized keypoints in the stored image (raw SSD models with keypoints).
    package var keypoints: [(x: Float, y: Float)]

    package static func == (a: DetectionBox, b: DetectionBox) -> Bool {
        a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height && a.categories == b.categories
            && a.keypoints.map(\.x) == b.keypoints.map(\.x) && a.keypoints.map(\.y) == b.keypoints.map(\.y)
    }

    package init(
        x: Int, y: Int, width: Int, height: Int, categories: [Category], keypoints: [(x: Float, y: Float)] = []
    ) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.categories = categories
        self.keypoints = keypoints
    }
}
