import Foundation
import Imaging
import MediaPipeTasksVision

/// Draws detection results on a picture.
struct Annotator {
    var canvas: Canvas

    static func draw(_ result: ObjectDetectorResult, on bitmap: Bitmap) -> Annotator {
        var canvas = Canvas(bitmap)
        for d in result.detections {
            let b = d.boundingBox
            let top = d.categories.first
            let name = top?.displayName ?? top?.categoryName ?? top.map { "#\($0.index)" } ?? ""
            let label = top.map { String(format: "%@ %.0f%%", name, $0.score * 100) } ?? ""
            canvas.drawLabeledBox(x: Int(b.origin.x), y: Int(b.origin.y), width: Int(b.size.width), height: Int(b.size.height),
                                  label: label, color: .forIndex(top?.index ?? 0))
        }
        return Annotator(canvas: canvas)
    }

    func write(to path: String) throws {
        do { try ImageEncoder.write(canvas.bitmap, to: path) } catch let e as ImagingError { throw CLIError.failure(e.message) }
    }
}
