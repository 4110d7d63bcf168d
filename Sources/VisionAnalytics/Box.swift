/// An axis-aligned box in pixels: its top-left corner, width and height (COCO's `bbox`).
public struct Box: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Width × height.
    public var area: Double { width * height }
}
