/// A rectangle in normalized coordinates ([0, 1] on both axes) of an image's stored pixels.
public struct NormalizedRect: Equatable, Sendable {
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

    /// The whole image.
    public static let full = NormalizedRect(x: 0, y: 0, width: 1, height: 1)
}
