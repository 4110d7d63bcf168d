import Imaging

extension TrackBox {
    /// This box, given in the stored pixels of a `storedWidth`×`storedHeight` picture shown with
    /// `orientation`, in the pixels of the picture as shown (the inverse of the preprocessor's
    /// shown-to-stored mapping; exact for the 8 orientations).
    package func shown(storedWidth: Int, storedHeight: Int, orientation: ImageOrientation) -> TrackBox {
        guard orientation != .up else { return self }
        // The mapping takes normalized shown coordinates (u, v) to stored pixels: p = o + u·a + v·b.
        let m = ImagePreprocessor.mapping(
            width: storedWidth, height: storedHeight, orientation: orientation, roi: .full, dstWidth: 1, dstHeight: 1)
        let det = m.dxX * m.dyY - m.dyX * m.dxY
        guard det != 0 else { return self }
        func normalized(_ x: Double, _ y: Double) -> (Double, Double) {
            let px = x - m.originX, py = y - m.originY
            return ((px * m.dyY - py * m.dyX) / det, (py * m.dxX - px * m.dxY) / det)
        }
        let shownWidth = Double(orientation.swapsDimensions ? storedHeight : storedWidth)
        let shownHeight = Double(orientation.swapsDimensions ? storedWidth : storedHeight)
        // Whole-pixel boxes stay whole: values a rounding error away from an integer are that integer.
        func snapped(_ v: Double) -> Double { abs(v - v.rounded()) < 1e-6 ? v.rounded() : v }
        let a = normalized(x, y), b = normalized(x + width, y + height)
        return TrackBox(
            x: snapped(min(a.0, b.0) * shownWidth), y: snapped(min(a.1, b.1) * shownHeight),
            width: snapped(abs(a.0 - b.0) * shownWidth), height: snapped(abs(a.1 - b.1) * shownHeight))
    }
}
