import Imaging
import VisionAnalytics

/// Draws a task's record on a picture: boxes with their labels (colours by class or track ID),
/// or the top classification as a caption; text sized to the picture so it reads at any size.
package enum Annotation {
    package static func draw(_ record: TaskRecord, on bitmap: Bitmap, scale: Double = 1) -> Bitmap {
        var canvas = Canvas(bitmap)
        let pen = max(3, min(bitmap.width, bitmap.height) / 150)
        for shape in record.overlay {
            switch shape {
            case .line(let a, let b, let label, let index):
                let color = Canvas.Color.overlay[index % Canvas.Color.overlay.count]
                canvas.drawLine(
                    fromX: a.x * scale, y: a.y * scale, toX: b.x * scale, y: b.y * scale, thickness: pen, color: color)
                // A tick from the middle towards the "in" side, the caption at its end.
                let dx = (b.x - a.x) * scale, dy = (b.y - a.y) * scale, length = (dx * dx + dy * dy).squareRoot()
                let mx = (a.x + b.x) / 2 * scale, my = (a.y + b.y) / 2 * scale
                let tick = Double(8 * pen), nx = length > 0 ? dy / length : 0, ny = length > 0 ? -dx / length : 0
                canvas.drawLine(fromX: mx, y: my, toX: mx + nx * tick, y: my + ny * tick, thickness: pen, color: color)
                canvas.drawCaption(
                    label, x: Int((mx + nx * tick).rounded()), y: Int((my + ny * tick).rounded()), color: color)
            case .anchor: break  // over the boxes, below
            case .polygon(let points, let label, let index):
                let color = Canvas.Color.overlay[index % Canvas.Color.overlay.count]
                for (i, a) in points.enumerated() {
                    let b = points[(i + 1) % points.count]
                    canvas.drawLine(
                        fromX: a.x * scale, y: a.y * scale, toX: b.x * scale, y: b.y * scale, thickness: pen,
                        color: color)
                }
                let top = points.min { ($0.y, $0.x) < ($1.y, $1.x) } ?? Point(x: 0, y: 0)
                canvas.drawCaption(
                    label, x: Int((top.x * scale).rounded()), y: Int((top.y * scale).rounded()) + pen, color: color)
            }
        }
        for m in record.marks {
            canvas.drawLabeledBox(
                x: Int((Double(m.x) * scale).rounded()), y: Int((Double(m.y) * scale).rounded()),
                width: Int((Double(m.width) * scale).rounded()), height: Int((Double(m.height) * scale).rounded()),
                label: m.label, color: .forIndex(m.color))
        }
        for case .anchor(let p) in record.overlay {
            let x = Int((p.x * scale).rounded()), y = Int((p.y * scale).rounded())
            canvas.fill(x: x - pen - 1, y: y - pen - 1, width: 2 * pen + 3, height: 2 * pen + 3, color: .black)
            canvas.fill(x: x - pen, y: y - pen, width: 2 * pen + 1, height: 2 * pen + 1, color: .white)
        }
        if record.marks.isEmpty, let caption = record.caption {
            canvas.drawLabeledBox(x: 0, y: 0, width: 0, height: 0, label: caption, color: .forIndex(0))
        }
        return canvas.bitmap
    }

    /// `bitmap` scaled to fit `maxSide` pixels (never enlarged), and the scale used.
    package static func thumbnail(_ bitmap: Bitmap, maxSide: Int) throws -> (Bitmap, Double) {
        let longest = max(bitmap.width, bitmap.height)
        guard longest > maxSide else { return (bitmap.convertedToRGB(), 1) }
        let s = Double(maxSide) / Double(longest)
        let w = max(1, Int((Double(bitmap.width) * s).rounded())),
            h = max(1, Int((Double(bitmap.height) * s).rounded()))
        let pixels = try ImagePreprocessor().bytes(bitmap, format: TensorFormat(width: w, height: h, element: .uint8))
        return (try Bitmap(width: w, height: h, format: .rgb8, pixels: pixels), s)
    }
}
