import Foundation
import MLKit
import Testing
import VisionTestSupport

// Seed 004's Swift, as written (the UIKit/AVFoundation values swapped for the Linux stand-ins).
// It must compile against `import MLKit` alone.

func imageOrientation(
  deviceOrientation: UIDeviceOrientation,
  cameraPosition: AVCaptureDevice.Position
) -> UIImage.Orientation {
  switch deviceOrientation {
  case .portrait:
    return cameraPosition == .front ? .leftMirrored : .right
  case .landscapeLeft:
    return cameraPosition == .front ? .downMirrored : .up
  case .portraitUpsideDown:
    return cameraPosition == .front ? .rightMirrored : .left
  case .landscapeRight:
    return cameraPosition == .front ? .upMirrored : .down
  case .faceDown, .faceUp, .unknown:
    return .up
  }
}

@Suite("Seed 004: label images with a custom model", .enabled(if: TestAssets.shouldRun))
struct SeedLabelingTests {
    @Test("local model, options, labeler, UIImage and sample-buffer images, async and sync calls")
    func seed() async throws {
        let localModelFilePath = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")
        let localModel = LocalModel(path: localModelFilePath)
        let options = CustomImageLabelerOptions(localModel: localModel)
        options.confidenceThreshold = NSNumber(value: 0.0)
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        imageLabeler.completionQueue = DispatchQueue(label: "seed")

        let uiImage = try #require(UIImage(contentsOfFile: TestAssets.image("dog.jpg")))
        let visionImage = VisionImage(image: uiImage)
        visionImage.orientation = uiImage.imageOrientation

        let processed: [ImageLabel] = try await withCheckedThrowingContinuation { continuation in
            imageLabeler.process(visionImage) { labels, error in
                guard error == nil, let labels = labels, !labels.isEmpty else {
                    // Handle the error.
                    continuation.resume(throwing: error ?? MLKitError(.unknown, "no labels"))
                    return
                }
                // Show results.
                continuation.resume(returning: labels)
            }
        }
        var labels: [ImageLabel]
        do {
            labels = try imageLabeler.results(in: visionImage)
        } catch let error {
            // Handle the error.
            Issue.record("\(error)")
            return
        }
        // Show results.
        var texts: [String] = []
        for label in labels {
            let labelText = label.text
            let confidence = label.confidence
            let index = label.index
            texts.append(labelText)
            #expect(confidence >= 0 && index >= 0)
        }
        #expect(labels.count == 10 && texts == processed.map(\.text))

        // A camera frame with the guide's orientation helper: the back camera held landscape-left.
        UIDevice.current.orientation = .landscapeLeft
        let cameraPosition = AVCaptureDevice.Position.back
        let bgra = try CVPixelBuffer(width: uiImage.bitmap.width, height: uiImage.bitmap.height, pixelFormatType: kCVPixelFormatType_32BGRA,
                                     bytes: LabelerTests.bgra(uiImage.bitmap))
        let sampleBuffer = CMSampleBuffer(imageBuffer: bgra, presentationTimeStamp: CMTime(value: 1, timescale: 30))
        let image = VisionImage(buffer: sampleBuffer)
        image.orientation = imageOrientation(
          deviceOrientation: UIDevice.current.orientation,
          cameraPosition: cameraPosition)
        #expect(image.orientation == .up)
        let fromFrame = try imageLabeler.results(in: image)
        #expect(fromFrame.prefix(3).map(\.text) == labels.prefix(3).map(\.text))
    }

    @Test("the guide's bundled-model fallback compiles; with no bundle model it returns early")
    func fallback() {
        func makeLabeler() -> ImageLabeler? {
            // Path where your download logic saves the model
            guard let documentDirectory = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first else { return nil }
            let localModelURL = documentDirectory.appendingPathComponent("my_remote_model.tflite")

            let model: LocalModel
            if FileManager.default.fileExists(atPath: localModelURL.path) {
              // Use the downloaded model
              model = LocalModel(path: localModelURL.path)
            } else {
              // Fall back to bundled model
              guard let bundledModelPath = Bundle.main.path(forResource: "model", ofType: "tflite") else { return nil }
              model = LocalModel(path: bundledModelPath)
            }

            let options = CustomImageLabelerOptions(localModel: model)
            return ImageLabeler.imageLabeler(options: options)
        }
        #expect(makeLabeler() == nil)
    }

    @Test("the orientation helper maps every device orientation and camera as the guide says")
    func orientations() {
        let front: [UIDeviceOrientation: UIImage.Orientation] = [.portrait: .leftMirrored, .landscapeLeft: .downMirrored,
                                                                  .portraitUpsideDown: .rightMirrored, .landscapeRight: .upMirrored, .faceUp: .up]
        let back: [UIDeviceOrientation: UIImage.Orientation] = [.portrait: .right, .landscapeLeft: .up, .portraitUpsideDown: .left,
                                                                 .landscapeRight: .down, .unknown: .up]
        for (device, expected) in front { #expect(imageOrientation(deviceOrientation: device, cameraPosition: .front) == expected) }
        for (device, expected) in back { #expect(imageOrientation(deviceOrientation: device, cameraPosition: .back) == expected) }
    }
}
