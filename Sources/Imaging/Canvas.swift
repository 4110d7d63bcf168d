/// Draws boxes and labels onto an RGB copy of a picture, for annotated output.
package struct Canvas: Sendable {
    /// The picture being drawn on (RGB8).
    package private(set) var bitmap: Bitmap

    /// An RGB colour.
    package struct Color: Equatable, Sendable {
        package var r: UInt8, g: UInt8, b: UInt8
        package init(r: UInt8, g: UInt8, b: UInt8) { self.r = r; self.g = g; self.b = b }
        package static let white = Color(r: 255, g: 255, b: 255)
        package static let black = Color(r: 0, g: 0, b: 0)
        /// A fixed palette that tells neighbouring classes apart.
        package static let palette: [Color] = [
            Color(r: 230, g: 25, b: 75), Color(r: 60, g: 180, b: 75), Color(r: 0, g: 130, b: 200),
            Color(r: 245, g: 130, b: 48),
            Color(r: 145, g: 30, b: 180), Color(r: 70, g: 200, b: 200), Color(r: 240, g: 50, b: 230),
            Color(r: 128, g: 128, b: 0),
        ]
        /// Colours for lines and zones, apart from the boxes' palette (yellow, teal, pink, white-blue).
        package static let overlay: [Color] = [
            Color(r: 255, g: 200, b: 0), Color(r: 0, g: 170, b: 150), Color(r: 255, g: 90, b: 160),
            Color(r: 90, g: 140, b: 255),
        ]
        /// The palette colour for `index`.
        package static func forIndex(_ index: Int) -> Color {
            palette[((index % palette.count) + palette.count) % palette.count]
        }
    }

    /// Starts from `bitmap` (converted to RGB8).
    package init(_ bitmap: Bitmap) {
        self.bitmap = bitmap.convertedToRGB()
    }

    /// Fills a rectangle (clipped to the picture).
    package mutating func fill(x: Int, y: Int, width: Int, height: Int, color: Color) {
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + width, bitmap.width), y1 = min(y + height, bitmap.height)
        guard x0 < x1, y0 < y1 else { return }
        let stride = bitmap.bytesPerRow
        for row in y0..<y1 {
            var p = row * stride + x0 * 3
            for _ in x0..<x1 {
                bitmap.pixels[p] = color.r
                bitmap.pixels[p + 1] = color.g
                bitmap.pixels[p + 2] = color.b
                p += 3
            }
        }
    }

    /// Draws a rectangle outline `thickness` pixels wide, inside the given bounds.
    package mutating func strokeRect(x: Int, y: Int, width: Int, height: Int, thickness: Int = 3, color: Color) {
        guard width > 0, height > 0 else { return }
        let t = max(1, min(thickness, width, height))
        fill(x: x, y: y, width: width, height: t, color: color)
        fill(x: x, y: y + height - t, width: width, height: t, color: color)
        fill(x: x, y: y, width: t, height: height, color: color)
        fill(x: x + width - t, y: y, width: t, height: height, color: color)
    }

    /// Draws a straight line `thickness` pixels wide between two points (clipped to the picture).
    package mutating func drawLine(
        fromX x0: Double, y y0: Double, toX x1: Double, y y1: Double, thickness: Int = 3, color: Color
    ) {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return }
        let t = max(1, thickness), half = t / 2
        // Clip the walk to the picture grown by the pen's width, so that a far-away end point costs nothing.
        let limit = Double(max(bitmap.width, bitmap.height) + t)
        let steps = Int(min(max(abs(x1 - x0), abs(y1 - y0)), 4 * limit).rounded(.up))
        guard steps > 0 else {
            fill(x: Int(x0.rounded()) - half, y: Int(y0.rounded()) - half, width: t, height: t, color: color)
            return
        }
        let dx = (x1 - x0) / Double(steps), dy = (y1 - y0) / Double(steps)
        for i in 0...steps {
            let x = x0 + dx * Double(i), y = y0 + dy * Double(i)
            guard x > -limit, x < limit, y > -limit, y < limit else { continue }
            fill(x: Int(x.rounded()) - half, y: Int(y.rounded()) - half, width: t, height: t, color: color)
        }
    }

    /// Draws a filled caption with its top-left corner at (x, y), kept inside the picture.
    package mutating func drawCaption(_ text: String, x: Int, y: Int, color: Color) {
        let scale = max(1, min(bitmap.width, bitmap.height) / 200)
        let (tw, th) = Self.textSize(text, scale: scale)
        let pad = 2 * scale
        let left = min(max(x, 0), max(0, bitmap.width - (tw + 2 * pad))),
            top = min(max(y, 0), max(0, bitmap.height - (th + 2 * pad)))
        fill(x: left, y: top, width: tw + 2 * pad, height: th + 2 * pad, color: color)
        drawText(text, x: left + pad, y: top + pad, scale: scale, color: .white)
    }

    /// Size in pixels of `text` drawn at `scale`.
    package static func textSize(_ text: String, scale: Int) -> (width: Int, height: Int) {
        (max(0, text.count * BitmapFont.advance - 1) * scale, BitmapFont.glyphHeight * scale)
    }

    /// Draws `text` with its top-left corner at (x, y).
    package mutating func drawText(_ text: String, x: Int, y: Int, scale: Int = 2, color: Color) {
        let s = max(1, scale)
        var cx = x
        for ch in text {
            let rows = BitmapFont.rows(for: ch)
            for (r, bits) in rows.enumerated() {
                for c in 0..<BitmapFont.glyphWidth where bits & (1 << UInt8(4 - c)) != 0 {
                    fill(x: cx + c * s, y: y + r * s, width: s, height: s, color: color)
                }
            }
            cx += BitmapFont.advance * s
        }
    }

    /// Draws a box with a filled caption above it (or inside it at the top edge of the picture).
    package mutating func drawLabeledBox(x: Int, y: Int, width: Int, height: Int, label: String, color: Color) {
        let scale = max(1, min(bitmap.width, bitmap.height) / 200)
        strokeRect(x: x, y: y, width: width, height: height, thickness: max(2, scale + 1), color: color)
        guard !label.isEmpty else { return }
        let (tw, th) = Self.textSize(label, scale: scale)
        let pad = 2 * scale
        let boxH = th + 2 * pad
        let top = y - boxH >= 0 ? y - boxH : y
        let left = min(max(x, 0), max(0, bitmap.width - (tw + 2 * pad)))
        fill(x: left, y: top, width: tw + 2 * pad, height: boxH, color: color)
        drawText(label, x: left + pad, y: top + pad, scale: scale, color: .white)
    }
}
