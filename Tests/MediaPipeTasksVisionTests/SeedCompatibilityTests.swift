import Foundation
import Imaging
import MediaPipeTasksVision
import Testing
import VisionTestSupport

// The seeds' Swift, as written (UIKit/AVFoundation sources swapped for Linux ones). It must compile
// against `import MediaPipeTasksVision` alone.

class ObjectDetectorResultProcessor: NSObject, ObjectDetectorLiveStreamDelegate {
    var received: [Int] = []
    func objectDetector(
        _ objectDetector: ObjectDetector,
        didFinishDetection objectDetectionResult: ObjectDetectorResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the detection result or errors here.
        received.append(timestampInMilliseconds)
    }
}

@Suite("The seeds' code compiles and runs", .enabled(if: TestAssets.shouldRun))
struct SeedCompatibilityTests {
    @Test("the guide's set-up, with a bundle path that is nil on Linux, fails with MediaPipe's error")
    func bundlePath() {
        do {
            let modelPath = Bundle.main.path(forResource: "model", ofType: "tflite")
            let options = ObjectDetectorOptions()
            options.baseOptions.modelAssetPath = modelPath
            options.runningMode = .image
            options.maxResults = 5
            let objectDetector = try ObjectDetector(options: options)
            _ = objectDetector
            Issue.record("a nil model path was accepted")
        } catch {
            #expect((error as NSError).domain == "com.google.mediapipe.tasks")
            #expect((error as NSError).code == 3)
        }
    }

    @Test("image, video and live stream set-ups with the three MPImage sources")
    func modes() throws {
        let modelPath = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
        let uiImage = try #require(UIImage(contentsOfFile: TestAssets.image("dog.jpg")))

        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.maxResults = 5
        let objectDetector = try ObjectDetector(options: options)
        let image = try MPImage(uiImage: uiImage)
        let result = try objectDetector.detect(image: image)
        #expect(result.detections.count == 5)

        let videoOptions = ObjectDetectorOptions()
        videoOptions.baseOptions.modelAssetPath = modelPath
        videoOptions.runningMode = .video
        videoOptions.maxResults = 5
        let videoDetector = try ObjectDetector(options: videoOptions)
        let pixelBuffer = try CVPixelBuffer(
            width: uiImage.bitmap.width, height: uiImage.bitmap.height,
            pixelFormatType: kCVPixelFormatType_32BGRA, bytes: Self.bgra(uiImage.bitmap))
        let frame = try MPImage(pixelBuffer: pixelBuffer)
        #expect(try videoDetector.detect(videoFrame: frame, timestampInMilliseconds: 0).detections == result.detections)

        let liveOptions = ObjectDetectorOptions()
        liveOptions.baseOptions.modelAssetPath = modelPath
        liveOptions.runningMode = .liveStream
        liveOptions.maxResults = 5
        let processor = ObjectDetectorResultProcessor()
        liveOptions.objectDetectorLiveStreamDelegate = processor
        let liveDetector = try ObjectDetector(options: liveOptions)
        let sampleBuffer = CMSampleBuffer(
            imageBuffer: pixelBuffer, presentationTimeStamp: CMTimeMake(value: 1, timescale: 30))
        let live = try MPImage(sampleBuffer: sampleBuffer)
        try liveDetector.detectAsync(image: live, timestampInMilliseconds: 33)
        liveDetector.waitUntilIdle()
        #expect(processor.received == [33])
    }

    static func bgra(_ b: Bitmap) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(b.width * b.height * 4)
        for y in 0..<b.height { for x in 0..<b.width { let (r, g, bl) = b.rgb(x: x, y: y); out += [bl, g, r, 255] } }
        return out
    }
}

@Suite("MPImage sources")
struct MPImageTests {
    @Test("UIImage stand-in: EXIF orientation, displayed size, MPImage width and height")
    func uiImage() throws {
        let bitmap = try Bitmap(width: 40, height: 20, format: .rgb8, fill: (1, 2, 3))
        let turned = UIImage(bitmap: bitmap, orientation: .right)
        #expect(turned.size == CGSize(width: 20, height: 40))
        let image = try MPImage(uiImage: turned)
        #expect(image.orientation == .right && image.width == 20 && image.height == 40)
        #expect(image.imageSourceType == .image)
        let overridden = try MPImage(uiImage: turned, orientation: .up)
        #expect(overridden.orientation == .up)
        #expect(UIImage(contentsOfFile: "/nonexistent.jpg") == nil)
        #expect(UIImage(data: Data([1, 2, 3])) == nil)
    }

    @Test("pixel and sample buffers: BGRA un-premultiplied, NV12 video range expanded, errors")
    func buffers() throws {
        // One BGRA pixel, premultiplied: colour (100, 50, 200) at alpha 128.
        let premultiplied = try CVPixelBuffer(
            width: 1, height: 1, pixelFormatType: kCVPixelFormatType_32BGRA, bytes: [100, 25, 50, 128])
        let image = try MPImage(pixelBuffer: premultiplied)
        #expect(image.bitmap.pixels == [199, 50, 100, 128])
        #expect(image.width == 1 && image.imageSourceType == .pixelBuffer)
        // Video-range NV12: Y 16 → 0, Y 235 → 255, Cb/Cr 128 stay.
        let video = try CVPixelBuffer(
            width: 2, height: 2, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
            bytes: [16, 235, 16, 235, 128, 128])
        #expect(try MPImage(pixelBuffer: video).bitmap.pixels == [0, 255, 0, 255, 128, 128])
        #expect(throws: ImagingError.self) {
            try CVPixelBuffer(width: 2, height: 2, pixelFormatType: 0x1234, bytes: [UInt8](repeating: 0, count: 16))
        }
        func message(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch let e as TasksError { return e.message } catch { return "\(error)" }
        }
        #expect(message { _ = try MPImage(pixelBuffer: nil) } == "Pixel Buffer cannot be nil.")
        #expect(message { _ = try MPImage(uiImage: nil, orientation: .up) } == "Image cannot be nil.")
        let invalid = CMSampleBuffer(
            imageBuffer: premultiplied, presentationTimeStamp: CMTimeMake(value: 0, timescale: 1), isValid: false)
        #expect(
            message { _ = try MPImage(sampleBuffer: invalid) }
                == "Sample buffer is not valid. Invoking CMSampleBufferIsValid(sampleBuffer) must return true.")
        let empty = CMSampleBuffer(imageBuffer: nil, presentationTimeStamp: CMTimeMake(value: 0, timescale: 1))
        #expect(message { _ = try MPImage(sampleBuffer: empty) } == "Sample buffer does not contain an image buffer.")
        let sample = try MPImage(
            sampleBuffer: CMSampleBuffer(
                imageBuffer: premultiplied, presentationTimeStamp: CMTimeMake(value: 3, timescale: 2)))
        #expect(sample.imageSourceType == .sampleBuffer && sample.sampleBuffer?.presentationTimeStamp.seconds == 1.5)
    }
}

@Suite("Camera formats end to end", .enabled(if: TestAssets.shouldRun))
struct CameraFormatTests {
    /// BT.601 full-range RGB → NV12 (Y plane, then interleaved CbCr averaged over 2×2).
    static func nv12(_ b: Bitmap) -> [UInt8] {
        let w = b.width & ~1, h = b.height & ~1
        var y = [UInt8](repeating: 0, count: w * h), uv = [UInt8](repeating: 0, count: w * h / 2)
        for j in 0..<h {
            for i in 0..<w {
                let (r, g, bl) = b.rgb(x: i, y: j)
                let luma: Double = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(bl)
                y[j * w + i] = UInt8(clamping: Int(luma.rounded()))
            }
        }
        for j in stride(from: 0, to: h, by: 2) {
            for i in stride(from: 0, to: w, by: 2) {
                var cb = 0.0, cr = 0.0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let (r, g, bl) = b.rgb(x: i + dx, y: j + dy)
                    let (dr, dg, db) = (Double(r), Double(g), Double(bl))
                    let u: Double = 128 - 0.168736 * dr - 0.331264 * dg + 0.5 * db
                    let v: Double = 128 + 0.5 * dr - 0.418688 * dg - 0.081312 * db
                    cb += u
                    cr += v
                }
                uv[(j / 2) * w + i] = UInt8(clamping: Int((cb / 4).rounded()))
                uv[(j / 2) * w + i + 1] = UInt8(clamping: Int((cr / 4).rounded()))
            }
        }
        return y + uv
    }

    @Test("an NV12 camera frame finds what the RGB picture shows")
    func nv12Detection() throws {
        let decoded = try #require(UIImage(contentsOfFile: TestAssets.image("dog.jpg")))
        let detector = try ObjectDetector(modelPath: TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
        let rgb = try detector.detect(image: try MPImage(uiImage: decoded))
        let buffer = try CVPixelBuffer(
            width: decoded.bitmap.width, height: decoded.bitmap.height,
            pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, bytes: Self.nv12(decoded.bitmap))
        let yuv = try detector.detect(image: try MPImage(pixelBuffer: buffer))
        for d in rgb.detections.prefix(3) {
            #expect(
                yuv.detections.contains { e in
                    e.categories[0].categoryName == d.categories[0].categoryName
                        && abs(e.boundingBox.origin.x - d.boundingBox.origin.x) <= 8
                        && abs(e.boundingBox.size.width - d.boundingBox.size.width) <= 12
                }, "\(d.categories[0].categoryName ?? "?")")
        }
    }
}
