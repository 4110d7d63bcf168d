/// A rectangle in normalized coordinates ([0, 1] on both axes) of an image's stored pixels.
package struct NormalizedRect: Equatable, Sendable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole image.
    package static let full = NormalizedRect(x: 0, y: 0, width: 1, height: 1)
}
