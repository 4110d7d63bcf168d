import Foundation
import Imaging
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
        let bgra = try CVPixelBuffer(
            width: uiImage.bitmap.width, height: uiImage.bitmap.height, pixelFormatType: kCVPixelFormatType_32BGRA,
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
            guard let documentDirectory = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
            else { return nil }
            let localModelURL = documentDirectory.appendingPathComponent("my_remote_model.tflite")

            let model: LocalModel
            if FileManager.default.fileExists(atPath: localModelURL.path) {
                // Use the downloaded model
                model = LocalModel(path: localModelURL.path)
            } else {
                // Fall back to bundled model
                guard let bundledModelPath = Bundle.main.path(forResource: "model", ofType: "tflite") else {
                    return nil
                }
                model = LocalModel(path: bundledModelPath)
            }

            let options = CustomImageLabelerOptions(localModel: model)
            return ImageLabeler.imageLabeler(options: options)
        }
        #expect(makeLabeler() == nil)
    }

    @Test("the orientation helper maps every device orientation and camera as the guide says")
    func orientations() {
        let front: [UIDeviceOrientation: UIImage.Orientation] = [
            .portrait: .leftMirrored, .landscapeLeft: .downMirrored,
            .portraitUpsideDown: .rightMirrored, .landscapeRight: .upMirrored, .faceUp: .up,
        ]
        let back: [UIDeviceOrientation: UIImage.Orientation] = [
            .portrait: .right, .landscapeLeft: .up, .portraitUpsideDown: .left,
            .landscapeRight: .down, .unknown: .up,
        ]
        for (device, expected) in front {
            #expect(imageOrientation(deviceOrientation: device, cameraPosition: .front) == expected)
        }
        for (device, expected) in back {
            #expect(imageOrientation(deviceOrientation: device, cameraPosition: .back) == expected)
        }
    }
}

/// The `async` forms iOS gives ML Kit's completion-handler methods, called from tasks and an actor.
@Suite("ML Kit's async forms", .enabled(if: TestAssets.shouldRun))
struct MLKitAsyncTests {
    actor Labeling {
        let labeler: ImageLabeler
        init(_ labeler: ImageLabeler) { self.labeler = labeler }
        /// The image is made and kept inside the actor: the async call takes it without sending it.
        func labels(_ path: String) async throws -> [String] {
            let image = VisionImage(image: try #require(UIImage(contentsOfFile: path)))
            return try await labeler.process(image).map { "\($0.index) \($0.text) \($0.confidence)" }
        }
    }

    @Test("try await imageLabeler.process(image) equals results(in:), from 4 tasks and from an actor")
    func labeler() async throws {
        let options = CustomImageLabelerOptions(
            localModel: LocalModel(path: TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")))
        options.confidenceThreshold = NSNumber(value: 0.0)
        options.maxResultCount = 3
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        let uiImage = try #require(UIImage(contentsOfFile: TestAssets.image("dog.jpg")))
        let expected = try imageLabeler.results(in: VisionImage(image: uiImage)).map {
            "\($0.index) \($0.text) \($0.confidence)"
        }
        #expect(expected.count == 3)
        try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let image = VisionImage(image: uiImage)
                    return try await imageLabeler.process(image).map { "\($0.index) \($0.text) \($0.confidence)" }
                }
            }
            for try await labels in group { #expect(labels == expected) }
        }
        #expect(try await Labeling(imageLabeler).labels(TestAssets.image("dog.jpg")) == expected)
    }

    @Test("try await objectDetector.process(image) equals results(in:); the image is read when the call is made")
    func detector() async throws {
        let options = CustomObjectDetectorOptions(
            localModel: LocalModel(path: TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")))
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        let objectDetector = ObjectDetector.objectDetector(options: options)
        let uiImage = try #require(UIImage(contentsOfFile: TestAssets.image("dog.jpg")))
        let image = VisionImage(image: uiImage)
        let expected = try objectDetector.results(in: image).map { "\($0.frame) \($0.labels.map(\.text))" }
        #expect(!expected.isEmpty)
        let objects = try await objectDetector.process(image)
        #expect(objects.map { "\($0.frame) \($0.labels.map(\.text))" } == expected)

        let turned = VisionImage(image: uiImage)
        turned.orientation = .right
        let turnedExpected = try objectDetector.results(in: turned).map { "\($0.frame)" }
        #expect(turnedExpected != expected.map { $0.components(separatedBy: " [").first ?? "" })
        let pending = Task {
            let image = VisionImage(image: uiImage)
            image.orientation = .right
            return try await objectDetector.process(image)
        }
        #expect(try await pending.value.map { "\($0.frame)" } == turnedExpected)

        // The completion form reads the image when called: changing it afterwards changes nothing.
        objectDetector.completionQueue = DispatchQueue(label: "completion")
        let changed = VisionImage(image: uiImage)
        changed.orientation = .right
        let viaCompletion: [String] = try await withCheckedThrowingContinuation { continuation in
            objectDetector.process(changed) { objects, error in
                if let objects {
                    continuation.resume(returning: objects.map { "\($0.frame)" })
                } else {
                    continuation.resume(throwing: error ?? MLKitError(.unknown, "none"))
                }
            }
            changed.orientation = .up
        }
        #expect(viaCompletion == turnedExpected)
        let bad = VisionImage(
            buffer: CMSampleBuffer(imageBuffer: nil, presentationTimeStamp: CMTime(value: 0, timescale: 1000)))
        do {
            _ = try await objectDetector.process(bad)
            Issue.record("a sample buffer without an image was accepted")
        } catch let e as MLKitError {
            #expect(e.mlkitCode == .invalidArgument)
        }
    }
}
