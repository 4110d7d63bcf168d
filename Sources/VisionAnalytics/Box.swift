/// An axis-aligned box in pixels: its top-left corner, width and height (COCO's `bbox`).
public struct Box: Sendable, Hashable, Codable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// A box at (`x`, `y`) of `width` × `height`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Width × height.
    public var area: Double { width * height }
}
