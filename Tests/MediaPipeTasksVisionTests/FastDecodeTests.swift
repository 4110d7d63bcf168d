import Foundation
import MediaPipeTasksVision
import Testing
import VisionTestSupport

/// `MPImage(contentsOfFile:fastDecodeFor:)` (a Linux extension, inexact): the picture decoded at a
/// reduced DCT scale, its size and the detector's boxes still in the file's own pixels, the same
/// objects found.
@Suite("Fast decoding for a model's input", .enabled(if: TestAssets.shouldRun))
struct FastDecodeTests {
    static func iou(_ a: CGRect, _ b: CGRect) -> Double {
        let i = a.intersection(b)
        guard !i.isNull else { return 0 }
        let inter = Double(i.width * i.height)
        return inter / (Double(a.width * a.height + b.width * b.height) - inter)
    }

    @Test(
        """
        cat_720p.jpg at 1/2 scale: width and height the file's, every confident detection found again in the file's \
        pixels
        """
    )
    func detections() throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
        let detector = try ObjectDetector(options: options)
        let path = TestAssets.image("cat_720p.jpg")
        let exactImage = try MPImage(contentsOfFile: path)
        let fastImage = try MPImage(contentsOfFile: path, fastDecodeFor: CGSize(width: 300, height: 300))
        #expect(fastImage.width == 1280 && fastImage.height == 720 && exactImage.width == 1280)
        let exact = try detector.detect(image: exactImage).detections.filter {
            ($0.categories.first?.score ?? 0) >= 0.5
        }
        let fast = try detector.detect(image: fastImage).detections
        #expect(!exact.isEmpty)
        for d in exact {
            let name = d.categories.first?.categoryName
            let best =
                fast.filter { $0.categories.first?.categoryName == name }.map {
                    Self.iou($0.boundingBox, d.boundingBox)
                }.max() ?? 0
            #expect(best >= 0.8, "\(name ?? "?") at \(d.boundingBox): best IoU \(best)")
        }
    }

    @Test("a missing file is MediaPipe's not-found error")
    func missing() {
        #expect(throws: TasksError.self) {
            try MPImage(contentsOfFile: "/nonexistent/x.jpg", fastDecodeFor: CGSize(width: 300, height: 300))
        }
    }
}
