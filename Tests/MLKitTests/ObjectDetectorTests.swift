import Foundation
import Imaging
import MLKit
import TFLiteModel
import Testing
import Video
import VisionTestSupport

/// ML Kit's object detection, tracking and classification with a custom classifier (seed 003):
/// the seed's flows on the shared photos, every option rule, orientations, stream mode, errors.
@Suite("ML Kit object detection", .enabled(if: TestAssets.shouldRun))
struct ObjectDetectorTests {
    static let birds = TestAssets.model("aiy_vision_classifier_birds_V1_3.tflite")
    static let imagenet = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")

    static func detector(_ model: String = birds, _ configure: (CustomObjectDetectorOptions) -> Void) -> ObjectDetector
    {
        let options = CustomObjectDetectorOptions(localModel: LocalModel(path: model))
        configure(options)
        return ObjectDetector.objectDetector(options: options)
    }

    static func photo(_ name: String) throws -> VisionImage {
        guard let image = UIImage(contentsOfFile: TestAssets.image(name)) else {
            throw TestSupportError("cannot read \(name)")
        }
        let visionImage = VisionImage(image: image)
        visionImage.orientation = image.imageOrientation
        return visionImage
    }

    static func frames(_ objects: [Object]) -> [[Int]] {
        objects.map {
            [Int($0.frame.origin.x), Int($0.frame.origin.y), Int($0.frame.size.width), Int($0.frame.size.height)]
        }
    }

    @Test("the seed's single-image flow: birds get bird labels (classifier threshold 0.5, 3 labels), no tracking ID")
    func seedBirds() throws {
        let objectDetector = Self.detector { options in
            options.detectorMode = .singleImage
            options.shouldEnableClassification = true
            options.shouldEnableMultipleObjects = true
            options.classificationConfidenceThreshold = NSNumber(value: 0.5)
            options.maxPerObjectLabelCount = 3
        }
        #expect(objectDetector.modelError == nil)
        for (name, frame, label) in [
            ("bird.png", [39, 83, 447, 240], "/m/024jdh"), ("owl.jpg", [154, 10, 178, 356], "/m/01_72_"),
        ] {
            var objects: [Object]
            do { objects = try objectDetector.results(in: try Self.photo(name)) } catch {
                Issue.record("\(error)"); return
            }
            #expect(Self.frames(objects) == [frame], "\(name)")
            // The seed's loop.
            for object in objects {
                let frame = object.frame
                let trackingID = object.trackingID
                let description = object.labels.enumerated().map { (index, label) in
                    "Label \(index): \(label.text), \(label.confidence), \(label.index)"
                }.joined(separator: "\n")
                #expect(
                    frame.size.width > 0 && trackingID == nil && description.hasPrefix("Label 0: \(label), "),
                    "\(name): \(description)")
                #expect(
                    object.labels.count <= 3
                        && object.labels.allSatisfy { $0.confidence >= 0.5 && $0.text != "__background__" })
            }
        }
    }

    /// The localizer's confident boxes on cat_720p.jpg and pets.jpg (MediaPipe 1.2.2's, SSD MobileNet v1 at
    /// ≥ 0.5, from Tests/Goldens and, on arm64, Tests/Goldens/aarch64: LiteRT's aarch64 kernels round
    /// differently) and the label ML Kit's classifier gives the first dog's crop on each architecture.
    static var arch: (cat: [Int], pets: [[Int]], dogLabel: String) {
        #if arch(arm64)
            return ([102, 98, 789, 599], [[120, 48, 129, 246], [346, 162, 147, 207]], "whippet")
        #else
            return ([102, 94, 789, 609], [[119, 48, 129, 246], [346, 162, 147, 207]], "Italian greyhound")
        #endif
    }

    @Test("ImageNet classifier: the cat and both dogs; single mode picks the most prominent object")
    func imagenetObjects() throws {
        let multiple = Self.detector(Self.imagenet) {
            $0.detectorMode = .singleImage; $0.shouldEnableMultipleObjects = true; $0.shouldEnableClassification = true
        }
        let cat = try multiple.results(in: try Self.photo("cat_720p.jpg"))
        #expect(Self.frames(cat) == [Self.arch.cat])
        #expect(cat.first?.labels.first?.text == "Egyptian cat" && cat.first?.labels.first?.index == 286)
        let pets = try multiple.results(in: try Self.photo("pets.jpg"))
        #expect(Self.frames(pets) == Self.arch.pets)
        #expect(pets.first?.labels.first?.text == Self.arch.dogLabel)
        // dog.jpg: bicycle, car, dog, person — single mode keeps the biggest central confident box.
        let single = Self.detector(Self.imagenet) {
            $0.detectorMode = .singleImage; $0.shouldEnableClassification = true
        }
        let dog = try single.results(in: try Self.photo("dog.jpg"))
        #expect(Self.frames(dog) == [[146, 114, 429, 316]])
        let all = try multiple.results(in: try Self.photo("dog.jpg"))
        #expect(
            Self.frames(all) == [[146, 114, 429, 316], [458, 75, 232, 95], [132, 211, 204, 327], [71, 79, 30, 44]])
        #expect(all[2].labels.first?.text == "malamute, malemute, Alaskan malamute")
    }

    @Test(
        """
        option defaults and rules: threshold nil → metadata (0.2) → 0, NaN/out of range → unset; label count ≤ 0 → \
        10; classification off → no labels
        """
    )
    func optionRules() throws {
        let options = CustomObjectDetectorOptions(localModel: LocalModel(path: Self.birds))
        #expect(
            options.detectorMode == .stream && !options.shouldEnableMultipleObjects
                && !options.shouldEnableClassification)
        #expect(
            options.classificationConfidenceThreshold == nil && options.maxPerObjectLabelCount == 10
                && options.maxObjectCount == 5)
        #expect(ObjectDetectorMode.singleImage.rawValue == 0 && ObjectDetectorMode.stream.rawValue == 1)
        func labels(
            _ threshold: NSNumber?, count: Int = 10, model: String = Self.birds, image: String = "bird.png"
        ) throws -> [ObjectLabel] {
            let d = Self.detector(model) {
                $0.detectorMode = .singleImage; $0.shouldEnableClassification = true
                $0.classificationConfidenceThreshold = threshold; $0.maxPerObjectLabelCount = count
            }
            return try d.results(in: try Self.photo(image)).first?.labels ?? []
        }
        let metadata = try labels(nil)  // the birds model's metadata threshold is 0.2
        #expect(!metadata.isEmpty && metadata.allSatisfy { $0.confidence >= 0.2 })
        #expect(try labels(NSNumber(value: Float.nan)).map(\.index) == metadata.map(\.index))
        #expect(try labels(NSNumber(value: 1.5)).map(\.index) == metadata.map(\.index))
        #expect(try labels(NSNumber(value: -1)).map(\.index) == metadata.map(\.index))
        let zero = try labels(NSNumber(value: 0))
        #expect(zero.count == 10 && zero.map(\.confidence) == zero.map(\.confidence).sorted(by: >))
        #expect(try labels(NSNumber(value: 0), count: 0).count == 10)
        #expect(try labels(NSNumber(value: 0), count: -3).count == 10)
        #expect(try labels(NSNumber(value: 0), count: 2).map(\.index) == zero.prefix(2).map(\.index))
        #expect(try labels(NSNumber(value: 1)).isEmpty)
        let cutoff = zero[3].confidence
        #expect(try labels(NSNumber(value: cutoff)).count >= 4)  // kept iff ≥
        // ImageNet model without a metadata threshold: nil means 0.
        #expect(try labels(nil, count: 5, model: Self.imagenet, image: "cat_720p.jpg").count == 5)
        let off = Self.detector { $0.detectorMode = .singleImage }
        #expect(try off.results(in: try Self.photo("bird.png")).map(\.labels.count) == [0])
    }

    @Test("at most 5 objects with multiple objects on; maxObjectCount lifts the cap; 1 without")
    func objectCaps() throws {
        func count(_ configure: (CustomObjectDetectorOptions) -> Void) throws -> Int {
            try Self.detector {
                $0.detectorMode = .singleImage; $0.localizerScoreThreshold = 0.2; configure($0)
            }
            .results(in: try Self.photo("dog.jpg")).count
        }
        #expect(try count { $0.shouldEnableMultipleObjects = true } == 5)
        #expect(
            try count {
                $0.shouldEnableMultipleObjects = true; $0.maxObjectCount = 0
            } == 5)
        #expect(
            try count {
                $0.shouldEnableMultipleObjects = true; $0.maxObjectCount = 50
            } > 5)
        #expect(
            try count {
                $0.shouldEnableMultipleObjects = true; $0.maxObjectCount = 2
            } == 2)
        #expect(
            try count {
                $0.shouldEnableMultipleObjects = false; $0.maxObjectCount = 50
            } == 1)
        // Nothing confident: no object.
        let blank = VisionImage(image: UIImage(bitmap: try Bitmap(width: 64, height: 64, fill: (128, 128, 128))))
        #expect(try Self.detector { $0.detectorMode = .singleImage }.results(in: blank).isEmpty)
    }

    /// The inverse of each orientation's display transform.
    static func inverse(_ o: UIImage.Orientation) -> UIImage.Orientation {
        switch o {
        case .right: return .left;
        case .left: return .right;
        default: return o
        }
    }

    @Test(
        """
        every orientation: the localizer runs with it (its boxes are MediaPipe's for that orientation); UIImage \
        frames as shown, buffer frames as stored
        """
    )
    func orientations() throws {
        let golden = try Goldens.dictionary("mediapipe_detector.json")["results"] as? [String: Any] ?? [:]
        let decoded = try ImageDecoder.decode(contentsOfFile: TestAssets.image("pets.jpg")).bitmap
        let d = Self.detector(Self.imagenet) {
            $0.detectorMode = .singleImage; $0.shouldEnableMultipleObjects = true; $0.shouldEnableClassification = true
        }
        var bgra = [UInt8]()
        for y in 0..<decoded.height {
            for x in 0..<decoded.width { let (r, g, b) = decoded.rgb(x: x, y: y); bgra += [b, g, r, 255] }
        }
        let buffer = try CVPixelBuffer(
            width: decoded.width, height: decoded.height, pixelFormatType: kCVPixelFormatType_32BGRA, bytes: bgra)
        for o in UIImage.Orientation.allCases {
            // The stored pixels as a camera buffer shown with `o`: frames in the buffer's own pixels.
            let frame = VisionImage(
                buffer: CMSampleBuffer(imageBuffer: buffer, presentationTimeStamp: CMTime(value: 0, timescale: 1)))
            frame.orientation = o
            let fromBuffer = try d.results(in: frame)
            #expect(!fromBuffer.isEmpty, "\(o)")
            // MediaPipe 1.2.2 with the same rotation: its boxes scoring ≥ 0.5 (the localizer's threshold),
            // overlapping ones merged whatever their class (IoU > 0.5, the better score kept).
            let key = o == .up ? "default" : "\(o)"
            if let detections = golden["ssd_mobilenet_v1_coco_quant_metadata.tflite|pets.jpg|\(key)"]
                as? [[String: Any]]
            {
                let confident = detections.compactMap { d -> (box: [Int], score: Double)? in
                    guard let box = d["box"] as? [Int], box.count == 4,
                        let score = (d["categories"] as? [[String: Any]])?.first?["score"] as? Double, score >= 0.5
                    else { return nil }
                    return (box, score)
                }.sorted { $0.score > $1.score }
                var kept: [[Int]] = []
                for c in confident where !kept.contains(where: { Self.iou($0, c.box) > 0.5 }) { kept.append(c.box) }
                #expect(Set(Self.frames(fromBuffer)) == Set(kept), "\(o)")
            }
            // The same pixels as a UIImage shown with `o`: the same objects, frames in the picture as shown.
            let image = VisionImage(image: UIImage(bitmap: decoded))
            image.orientation = o
            let shown = try d.results(in: image)
            let backToStored = shown.map { obj -> [Int] in
                let x0 = Int(obj.frame.minX), y0 = Int(obj.frame.minY), x1 = Int(obj.frame.maxX) - 1,
                    y1 = Int(obj.frame.maxY) - 1
                let a = Self.storedPixel(x0, y0, o, decoded.width, decoded.height),
                    b = Self.storedPixel(x1, y1, o, decoded.width, decoded.height)
                return [min(a.0, b.0), min(a.1, b.1), abs(a.0 - b.0) + 1, abs(a.1 - b.1) + 1]
            }
            #expect(backToStored == Self.frames(fromBuffer), "\(o)")
            #expect(shown.map { $0.labels.first?.index } == fromBuffer.map { $0.labels.first?.index }, "\(o)")
            #expect(
                shown.allSatisfy { $0.frame.maxX <= CGFloat(o.swapsDimensions ? decoded.height : decoded.width) },
                "\(o)")
        }
    }

    static func iou(_ a: [Int], _ b: [Int]) -> Double {
        let ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])),
            iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
        let inter = Double(ix * iy)
        return inter / (Double(a[2] * a[3] + b[2] * b[3]) - inter)
    }

    /// The stored pixel shown at upright pixel (x, y) (EXIF's table).
    static func storedPixel(_ x: Int, _ y: Int, _ o: UIImage.Orientation, _ width: Int, _ height: Int) -> (Int, Int) {
        switch o {
        case .up: return (x, y)
        case .upMirrored: return (width - 1 - x, y)
        case .down: return (width - 1 - x, height - 1 - y)
        case .downMirrored: return (x, height - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, height - 1 - x)
        case .rightMirrored: return (width - 1 - y, height - 1 - x)
        case .left: return (width - 1 - y, x)
        }
    }

    @Test(
        """
        stream mode: IDs after confirmation, labels reused between reclassifications, reset after a 1 s gap, \
        singleImage stateless
        """
    )
    func streamMode() throws {
        let d = Self.detector(Self.imagenet) {
            $0.shouldEnableMultipleObjects = true; $0.shouldEnableClassification = true
        }
        let pets = try ImageDecoder.decode(contentsOfFile: TestAssets.image("pets.jpg")).bitmap
        func frame(_ t: Int) -> VisionImage {
            let image = VisionImage(image: UIImage(bitmap: pets))
            image.timestampMs = t
            return image
        }
        var outputs: [[Object]] = []
        for i in 0..<12 { outputs.append(try d.results(in: frame(i * 33))) }
        #expect(outputs[0].isEmpty && outputs[1].isEmpty)
        #expect(outputs[2].map { $0.trackingID?.intValue } == [0, 1])
        #expect(outputs[11].map { $0.trackingID?.intValue } == [0, 1])
        #expect(Self.frames(outputs[11]) == Self.arch.pets)
        #expect(outputs[11].first?.labels.first?.text == Self.arch.dogLabel)
        #expect(d.classificationCount == 2)  // once per confirmed track, not per frame
        for i in 12..<40 { _ = try d.results(in: frame(i * 33)) }
        #expect(d.classificationCount == 4)  // again after 30 frames
        // A gap of more than a second: the tracker starts over with new IDs.
        let after = try (0..<3).map { try d.results(in: frame(10_000 + $0 * 33)) }
        #expect(after[2].map { $0.trackingID?.intValue } == [2, 3])
        // Camera buffers carry their own presentation time.
        let single = Self.detector { $0.detectorMode = .singleImage }
        for _ in 0..<3 { #expect(try single.results(in: frame(0)).allSatisfy { $0.trackingID == nil }) }
        // Single-object stream mode keeps following the object it chose.
        let one = Self.detector { $0.detectorMode = .stream }
        let ids = try (0..<6).map { try one.results(in: frame($0 * 33)).map { $0.trackingID?.intValue } }
        #expect(ids == [[], [], [0], [0], [0], [0]])
    }

    @Test("same frames in, same IDs and labels out")
    func determinism() throws {
        func run() throws -> [String] {
            let d = Self.detector(Self.imagenet) {
                $0.shouldEnableMultipleObjects = true; $0.shouldEnableClassification = true
            }
            let reader = try VideoReader(path: TestAssets.image("car-detection.mp4"))
            var lines: [String] = []
            while lines.count < 90, let f = try reader.nextFrame() {
                let image = VisionImage(
                    image: try #require(UIImage(rgbPixels: f.rgbPixels, width: f.width, height: f.height)))
                image.timestampMs = f.timestampMs
                lines.append(try d.results(in: image).map(\.description).joined(separator: ";"))
            }
            return lines
        }
        let a = try run()
        #expect(a.contains { $0.contains("#0") })
        #expect(try run() == a)
    }

    @Test(
        """
        errors: missing file, a detector as the classifier, no labels, a classifier as the localizer; process() \
        reports them
        """
    )
    func errors() async throws {
        func error(
            _ model: String,
            _ configure: (CustomObjectDetectorOptions) -> Void = { $0.shouldEnableClassification = true }
        ) -> NSError? {
            let d = Self.detector(model, configure)
            do { _ = try d.results(in: try Self.photo("bird.png")); return nil } catch let e as NSError {
                #expect(d.modelError != nil)
                return e
            }
        }
        let missing = error("/nonexistent/model.tflite")
        #expect(missing?.domain == "com.google.mlkit" && missing?.code == 5)
        #expect(
            missing?.localizedDescription
                == "Failed to initialize detector. Unable to open file at /nonexistent/model.tflite")
        let detector = error(TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
        #expect(
            detector?.code == 3
                && detector?.localizedDescription.hasPrefix(
                    "Failed to initialize detector. The model has 4 output tensors") == true
        )
        let unlabeledPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vt-\(UUID().uuidString).tflite"
        ).path
        #expect(
            FileManager.default.createFile(
                atPath: unlabeledPath,
                contents: Data(try SyntheticModels.classifier(heads: [.init(name: "s", values: [0.2, 0.8])]))))
        defer { try? FileManager.default.removeItem(atPath: unlabeledPath) }
        let unlabeled = error(unlabeledPath)
        #expect(unlabeled?.code == 3 && unlabeled?.localizedDescription.contains("no labels in its metadata") == true)
        let badLocalizer = error(Self.birds) { $0.localizerModel = LocalModel(path: Self.imagenet) }
        #expect(
            badLocalizer?.code == 3
                && badLocalizer?.localizedDescription.hasPrefix("Failed to initialize detector. Localizer model")
                    == true
        )
        // Classification off: the custom model is not loaded.
        #expect(error("/nonexistent/model.tflite") { $0.shouldEnableClassification = false } == nil)
        let broken = Self.detector("/nonexistent/model.tflite") { $0.shouldEnableClassification = true }
        broken.completionQueue = DispatchQueue(label: "test")
        let image = try Self.photo("bird.png")
        let failure: NSError? = await withCheckedContinuation { continuation in
            broken.process(image) { objects, error in
                continuation.resume(returning: objects == nil ? error as NSError? : nil)
            }
        }
        #expect(failure?.code == 5)
        let working = Self.detector {
            $0.detectorMode = .singleImage; $0.shouldEnableClassification = true
        }
        working.completionQueue = DispatchQueue(label: "test2")
        let found: [Object]? = await withCheckedContinuation { continuation in
            working.process(image) { objects, _ in continuation.resume(returning: objects) }
        }
        #expect(found.map(Self.frames) == [[39, 83, 447, 240]])
    }

    @Test("the shipped localizer is the shared SSD MobileNet v1 model, byte for byte")
    func shippedLocalizer() throws {
        let path = try #require(ObjectDetector.bundledLocalizerPath)
        let shipped = try RegularFile.read(path, maxBytes: 1 << 24)
        let shared = try RegularFile.read(
            TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"), maxBytes: 1 << 24)
        #expect(try SHA256.hex(shipped) == "e571b1256092bd9dc395782bb1f8bbd494ebd2c4f70613786a744052595c44fb")
        #expect(shipped == shared)
    }
}
