/// Ultralytics' letterbox geometry: a picture scaled to fit a `width`×`height` tensor with its
/// aspect ratio kept, centred, the rest padded — and the way back from tensor pixels to the
/// picture's (`scale_boxes`).
///
/// The scale is `r = min(width / sourceWidth, height / sourceHeight)`; the resized picture is
/// `round(sourceWidth·r)` × `round(sourceHeight·r)` (at least 1, Python's rounding: halves to
/// even), placed at `left = round(dw − 0.1)`, `top = round(dh − 0.1)` where `dw`, `dh` are half the
/// padding. Mapping back divides by the per-axis gain of the rounded size.
package struct Letterbox: Equatable, Sendable {
    /// The picture's size (upright).
    package let sourceWidth: Int, sourceHeight: Int
    /// The tensor's size.
    package let width: Int, height: Int
    /// The picture's size once scaled into the tensor.
    package let resizedWidth: Int, resizedHeight: Int
    /// Where the scaled picture starts in the tensor (the left and top padding).
    package let left: Int, top: Int

    /// The geometry for a `sourceWidth`×`sourceHeight` picture in a `width`×`height` tensor (all positive).
    package init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.sourceWidth = max(sourceWidth, 1)
        self.sourceHeight = max(sourceHeight, 1)
        self.width = max(width, 1)
        self.height = max(height, 1)
        let r = min(Double(self.height) / Double(self.sourceHeight), Double(self.width) / Double(self.sourceWidth))
        resizedWidth = min(max(Int((Double(self.sourceWidth) * r).rounded(.toNearestOrEven)), 1), self.width)
        resizedHeight = min(max(Int((Double(self.sourceHeight) * r).rounded(.toNearestOrEven)), 1), self.height)
        left = Int((Double(self.width - resizedWidth) / 2 - 0.1).rounded(.toNearestOrEven))
        top = Int((Double(self.height - resizedHeight) / 2 - 0.1).rounded(.toNearestOrEven))
    }

    /// The picture's point for tensor point (`x`, `y`), clipped to the picture.
    package func source(x: Float, y: Float) -> (x: Float, y: Float) {
        let gainX = Float(Double(resizedWidth) / Double(sourceWidth)),
            gainY = Float(Double(resizedHeight) / Double(sourceHeight))
        let sx = (x - Float(left)) / gainX, sy = (y - Float(top)) / gainY
        return (min(max(sx, 0), Float(sourceWidth)), min(max(sy, 0), Float(sourceHeight)))
    }
}
