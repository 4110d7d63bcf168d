/// A detection in the core: an integer pixel box in the stored (unrotated) image and its categories.
public struct DetectionBox: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public var categories: [Category]

    public init(x: Int, y: Int, width: Int, height: Int, categories: [Category]) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.categories = categories
    }
}
