/// A point in pixels (x to the right, y down), for zone and line definitions.
public struct Point: Sendable, Hashable, Codable {
    /// Horizontal position in pixels.
    public var x: Double
    /// Vertical position in pixels.
    public var y: Double

    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
