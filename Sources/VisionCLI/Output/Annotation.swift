import Imaging

/// Draws a task's record on a picture: boxes with their labels (colours by class or track ID),
/// or the top classification as a caption; text sized to the picture so it reads at any size.
enum Annotation {
    static func draw(_ record: TaskRecord, on bitmap: Bitmap, scale: Double = 1) -> Bitmap {
        var canvas = Canvas(bitmap)
        for m in record.marks {
            canvas.drawLabeledBox(
                x: Int((Double(m.x) * scale).rounded()), y: Int((Double(m.y) * scale).rounded()),
                width: Int((Double(m.width) * scale).rounded()), height: Int((Double(m.height) * scale).rounded()),
                label: m.label, color: .forIndex(m.color))
        }
        if record.marks.isEmpty, let caption = record.caption {
            canvas.drawLabeledBox(x: 0, y: 0, width: 0, height: 0, label: caption, color: .forIndex(0))
        }
        return canvas.bitmap
    }

    /// `bitmap` scaled to fit `maxSide` pixels (never enlarged), and the scale used.
    static func thumbnail(_ bitmap: Bitmap, maxSide: Int) throws -> (Bitmap, Double) {
        let longest = max(bitmap.width, bitmap.height)
        guard longest > maxSide else { return (bitmap.convertedToRGB(), 1) }
        let s = Double(maxSide) / Double(longest)
        let w = max(1, Int((Double(bitmap.width) * s).rounded())), h = max(1, Int((Double(bitmap.height) * s).rounded()))
        let pixels = try ImagePreprocessor().bytes(bitmap, format: TensorFormat(width: w, height: h, element: .uint8))
        return (try Bitmap(width: w, height: h, format: .rgb8, pixels: pixels), s)
    }
}
