import Foundation
import Imaging
import MLKit
import MediaPipeTasksVision
import TFLiteModel
import Testing
import VisionTestSupport

/// ML Kit's rules on the shared and synthetic classifiers: thresholds, counts, the 8 orientations,
/// completion queues, errors. This file imports both MLKit and MediaPipeTasksVision, as an app
/// using both would.
@Suite("Image labeling rules", .enabled(if: TestAssets.shouldRun))
struct LabelerTests {
    static func bgra(_ b: Bitmap) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(b.width * b.height * 4)
        for y in 0..<b.height { for x in 0..<b.width { let (r, g, bl) = b.rgb(x: x, y: y); out += [bl, g, r, 255] } }
        return out
    }

    static func labeler(_ path: String, _ configure: (CustomImageLabelerOptions) -> Void = { _ in }) -> ImageLabeler {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: path))
        configure(options)
        return ImageLabeler.imageLabeler(options: options)
    }

    static func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString).tflite").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    static func smallImage() throws -> VisionImage {
        VisionImage(image: UIImage(bitmap: try Bitmap(width: 8, height: 8, format: .rgb8, fill: (1, 2, 3))))
    }

    @Test("confidenceThreshold: nil → the metadata's, else 0; NaN and out of range → unset; kept iff ≥")
    func thresholds() throws {
        // Scores 0.1, 0.7, 0.2 with a metadata threshold of 0.15.
        let head = SyntheticModels.Head(
            name: "animals", values: [0.1, 0.7, 0.2], labels: ["cat", "dog", "bird"], scoreThreshold: 0.15)
        let path = try Self.file(try SyntheticModels.classifier(heads: [head]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        func texts(_ threshold: NSNumber?) throws -> [String] {
            try Self.labeler(path) { $0.confidenceThreshold = threshold }.results(in: try Self.smallImage()).map(\.text)
        }
        #expect(try texts(nil) == ["dog", "bird"])
        #expect(try texts(NSNumber(value: Float.nan)) == ["dog", "bird"])
        #expect(try texts(NSNumber(value: -0.5)) == ["dog", "bird"])
        #expect(try texts(NSNumber(value: 1.5)) == ["dog", "bird"])
        #expect(try texts(NSNumber(value: 0)) == ["dog", "bird", "cat"])
        #expect(try texts(NSNumber(value: Float(0.2))) == ["dog", "bird"])  // >=
        #expect(try texts(NSNumber(value: 0.5)) == ["dog"])
        // No metadata threshold: nil means 0, so a negative score is dropped (MediaPipe keeps it).
        let negative = SyntheticModels.Head(name: "logits", values: [-0.5, 0.3], labels: ["a", "b"])
        let negativePath = try Self.file(try SyntheticModels.classifier(heads: [negative]))
        defer { try? FileManager.default.removeItem(atPath: negativePath) }
        #expect(try Self.labeler(negativePath).results(in: try Self.smallImage()).map(\.text) == ["b"])
        let labels = try Self.labeler(path) { $0.confidenceThreshold = 0 }.results(in: try Self.smallImage())
        #expect(labels.map(\.index) == [1, 2, 0])
        #expect(abs(labels[0].confidence - 0.7) < 1e-6)
    }

    @Test("maxResultCount: 10 by default, 0 or less means 10, else at most that many")
    func counts() throws {
        let path = TestAssets.model("mobilenet_v1_0.25_128_quant.tflite")
        let image = VisionImage(image: try #require(UIImage(contentsOfFile: TestAssets.image("cat_720p.jpg"))))
        for (count, expected) in [(10, 10), (0, 10), (-3, 10), (3, 3), (1, 1)] {
            let labels = try Self.labeler(path) {
                $0.maxResultCount = count; $0.confidenceThreshold = 0
            }.results(in: image)
            #expect(labels.count == expected, "maxResultCount \(count)")
            #expect(labels.map(\.confidence) == labels.map(\.confidence).sorted(by: >))
        }
        #expect(CustomImageLabelerOptions(localModel: LocalModel(path: path)).maxResultCount == 10)
    }

    @Test(
        "every orientation, mirrored ones included, labels the picture as shown (the same as the upright picture)",
        arguments: [
            UIImage.Orientation.up, .down, .left, .right, .upMirrored, .downMirrored, .leftMirrored, .rightMirrored,
        ])
    func orientation(_ orientation: UIImage.Orientation) throws {
        let labeler = Self.labeler(TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")) { $0.confidenceThreshold = 0 }
        let upright = try ImageDecoder.decode(contentsOfFile: TestAssets.image("dog.jpg")).bitmap
        let reference = try labeler.results(in: VisionImage(image: UIImage(bitmap: upright)))
        // Store the picture so that showing it with `orientation` gives the upright picture back.
        let inverse: [UIImage.Orientation: UIImage.Orientation] = [.left: .right, .right: .left]
        let stored = upright.upright((inverse[orientation] ?? orientation).imaging)
        #expect(stored.upright(orientation.imaging) == upright)
        let image = VisionImage(image: UIImage(bitmap: stored))
        image.orientation = orientation
        let labels = try labeler.results(in: image)
        #expect(labels.map(\.index) == reference.map(\.index))
        #expect(labels.map(\.confidence) == reference.map(\.confidence))
    }

    @Test("completions run on the main queue by default, or on the queue the program names")
    func queues() async throws {
        let labeler = Self.labeler(TestAssets.model("mobilenet_v1_0.25_128_quant.tflite"))
        let image = try Self.smallImage()
        let mainKey = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: mainKey, value: 1)
        let onMain: Int? = await withCheckedContinuation { continuation in
            labeler.process(image) { _, _ in continuation.resume(returning: DispatchQueue.getSpecific(key: mainKey)) }
        }
        #expect(onMain == 1)  // ran on the main queue
        let queue = DispatchQueue(label: "vt.labels")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        labeler.completionQueue = queue
        let onQueue: Int? = await withCheckedContinuation { continuation in
            labeler.process(image) { labels, error in
                #expect(error == nil && labels != nil)
                continuation.resume(returning: DispatchQueue.getSpecific(key: key))
            }
        }
        #expect(onQueue == 7)
        // Errors arrive through the completion too.
        let broken = Self.labeler("/nonexistent/model.tflite")
        broken.completionQueue = queue
        let failure: NSError? = await withCheckedContinuation { continuation in
            broken.process(image) { labels, error in
                continuation.resume(returning: labels == nil ? error as NSError? : nil)
            }
        }
        #expect(failure?.domain == MLKitError.domain && failure?.code == MLKitErrorCode.notFound.rawValue)
    }

    @Test("each model error: missing file, a detector, no labels, a 3-D output, float input without normalization")
    func errors() throws {
        func error(_ path: String) -> NSError? {
            do { _ = try Self.labeler(path).results(in: try Self.smallImage()); return nil } catch let e as NSError {
                return e
            }
        }
        let missing = error("/nonexistent/model.tflite")
        #expect(missing?.domain == "com.google.mlkit" && missing?.code == 5)
        #expect(
            missing?.localizedDescription
                == "Failed to initialize labeler. Unable to open file at /nonexistent/model.tflite")

        let detector = error(TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
        #expect(detector?.code == 3 && detector?.localizedDescription.contains("has 4 output tensors") == true)

        let unlabeled = try Self.file(
            try SyntheticModels.classifier(heads: [.init(name: "scores", values: [0.2, 0.8])]))
        defer { try? FileManager.default.removeItem(atPath: unlabeled) }
        let noLabels = error(unlabeled)
        #expect(
            noLabels?.code == 3
                && noLabels?.localizedDescription.contains(
                    "add a label file (TENSOR_AXIS_LABELS) to the output tensor's metadata") == true
        )
        #expect(noLabels?.localizedDescription.contains("vision-tasks") == false)  // the library names no CLI command

        var b = ModelBuilder(description: "3-D output")
        let input = b.addTensor(Tensor(name: "image", shape: [1, 8, 8, 3], type: .float32))
        let shape = b.addConstant(name: "shape", shape: [3], int32s: [1, 3, 64])
        let output = b.addTensor(Tensor(name: "scores", shape: [1, 3, 64], type: .float32))
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: b.opcode(OperatorCode(builtinCode: 22)), inputs: [input, shape], outputs: [output])
        ]
        b.inputs = [input]
        b.outputs = [output]
        let threeD = try Self.file(try b.build())
        defer { try? FileManager.default.removeItem(atPath: threeD) }
        #expect(
            error(threeD)?.localizedDescription
                == "Failed to initialize labeler. Unexpected number of dimensions for output index 0: got 3D, "
                + "expected either 2D (BxN with B=1) or 4D (BxHxWxN with B=1, W=1, H=1)."
        )

        let float = try Self.file(
            try SyntheticModels.classifier(
                heads: [.init(name: "s", values: [0.2, 0.8], labels: ["a", "b"])], normalization: nil))
        defer { try? FileManager.default.removeItem(atPath: float) }
        let f = error(float)
        #expect(
            f?.code == 5
                && f?.localizedDescription  // MediaPipe's NOT_FOUND for the missing metadata
                    == "Failed to initialize labeler. Input tensor has type float32: it requires specifying "
                    + "NormalizationOptions metadata to preprocess input images."
        )

        // A camera frame in a format ML Kit does not take.
        let rgba = try CVPixelBuffer(
            width: 2, height: 2, pixelFormatType: kCVPixelFormatType_32RGBA, bytes: [UInt8](repeating: 9, count: 16))
        let frame = VisionImage(
            buffer: CMSampleBuffer(imageBuffer: rgba, presentationTimeStamp: CMTime(value: 0, timescale: 1)))
        do {
            _ = try Self.labeler(TestAssets.model("mobilenet_v1_0.25_128_quant.tflite")).results(in: frame)
            Issue.record("an RGBA frame was accepted")
        } catch let e as MLKitError {
            #expect(e.mlkitCode == .invalidArgument && e.message.contains("kCVPixelFormatType_32BGRA"))
        }
    }

    @Test("`vision-tasks metadata --labels` makes an unlabeled classifier usable")
    func addLabels() throws {
        let unlabeled = try ModelFile(
            bytes: try SyntheticModels.classifier(heads: [.init(name: "scores", values: [0.2, 0.8])]))
        let labeled = try ClassifierMetadataWriter.write(
            unlabeled, labels: ("labels.txt", Array("no\nyes\n".utf8)), scoreThreshold: 0.5)
        let path = try Self.file(labeled)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let labels = try Self.labeler(path).results(in: try Self.smallImage())
        #expect(labels.map(\.text) == ["yes"])  // the written threshold 0.5 applies
        #expect(throws: TFLiteModelError.self) {
            try ClassifierMetadataWriter.write(unlabeled, labels: ("l.txt", Array("a\nb\nc".utf8)))
        }
    }

    @Test("MLKit and MediaPipeTasksVision in one file: one camera frame, the same top labels from both")
    func bothModules() throws {
        let path = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")
        let uiImage = try #require(UIImage(contentsOfFile: TestAssets.image("cat_720p.jpg")))
        let labels = try Self.labeler(path) { $0.confidenceThreshold = 0 }.results(in: VisionImage(image: uiImage))
        let classifier = try MediaPipeTasksVision.ImageClassifier(modelPath: path)
        let categories = try classifier.classify(image: MPImage(uiImage: uiImage)).classificationResult.classifications[
            0
        ].categories
        #expect(labels.prefix(3).map(\.index) == categories.prefix(3).map(\.index))
        #expect(labels.prefix(3).map(\.confidence) == categories.prefix(3).map(\.score))
    }
}
