import Foundation
import MediaPipeTasksVision
import Testing
import VisionTestSupport

let ssdV1 = "ssd_mobilenet_v1_coco_quant_metadata.tflite"

@Suite("ObjectDetector in image mode", .enabled(if: TestAssets.shouldRun))
struct ObjectDetectorImageTests {
    @Test("finds the bicycle, the car and the dog of dog.jpg as MediaPipe does")
    func dogPhoto() throws {
        let detector = try ObjectDetector(modelPath: TestAssets.model(ssdV1))
        let result = try detector.detect(image: try MPImage(contentsOfFile: TestAssets.image("dog.jpg")))
        try DetectorGolden.check(result, model: ssdV1, photo: "dog.jpg", case: "default")
        let top = result.detections.prefix(3).compactMap { $0.categories.first?.categoryName }
        #expect(top == ["bicycle", "car", "cat"])  // the dog is "cat" for this SSD, in MediaPipe too
        #expect(result.detections[0].categories[0].index == 1)
        #expect(result.timestampInMilliseconds == 0)
    }

    @Test("prints results in the seed's format")
    func description() throws {
        let result = ObjectDetectorResult(
            detections: [
                Detection(
                    categories: [ResultCategory(index: 17, score: 0.73828, categoryName: "dog", displayName: nil)],
                    boundingBox: CGRect(x: 355, y: 133, width: 190, height: 206), keypoints: nil)
            ], timestampInMilliseconds: 0)
        #expect(
            result.description == """
                ObjectDetectorResult:
                 Detection #0:
                  Box: (x: 355, y: 133, w: 190, h: 206)
                  Categories:
                   index : 17
                   score : 0.73828
                   class name : dog
                """)
    }

    @Test("image-mode timestamps count 0, 1000, 2000… like MediaPipe's")
    func imageTimestamps() throws {
        let detector = try ObjectDetector(modelPath: TestAssets.model(ssdV1))
        let image = try MPImage(contentsOfFile: TestAssets.image("pets.jpg"))
        #expect(try (0..<3).map { _ in try detector.detect(image: image).timestampInMilliseconds } == [0, 1000, 2000])
    }
}

@Suite("ObjectDetector errors", .enabled(if: TestAssets.shouldRun))
struct ObjectDetectorErrorTests {
    static func error(_ body: () throws -> Void) -> TasksError? {
        do { try body(); return nil } catch let e as TasksError { return e } catch { return nil }
    }

    static func options(_ path: String) -> ObjectDetectorOptions {
        let o = ObjectDetectorOptions()
        o.baseOptions.modelAssetPath = path
        return o
    }

    @Test("an empty model path")
    func emptyPath() {
        let e = Self.error { _ = try ObjectDetector(options: ObjectDetectorOptions()) }
        #expect(e?.tasksCode == .invalidArgumentError)
        #expect(
            e?.message
                == "INVALID_ARGUMENT: ExternalFile must specify at least one of 'file_content', 'file_name', "
                + "'file_pointer_meta' or 'file_descriptor_meta'."
        )
    }

    @Test("a missing model file")
    func missingFile() {
        let e = Self.error { _ = try ObjectDetector(modelPath: "/nonexistent/model.tflite") }
        #expect(e?.tasksCode == .notFoundError)
        #expect(e?.message == "NOT_FOUND: Unable to open file at /nonexistent/model.tflite")
        let ns = e.map { $0 as NSError }
        #expect(ns?.domain == "com.google.mediapipe.tasks")
        #expect(ns?.code == 5)
        #expect(ns?.localizedDescription == "NOT_FOUND: Unable to open file at /nonexistent/model.tflite")
    }

    @Test("a garbage and a truncated model file")
    func badFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let garbage = dir.appendingPathComponent("garbage.tflite").path
        #expect(
            FileManager.default.createFile(
                atPath: garbage, contents: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })))
        let truncated = dir.appendingPathComponent("truncated.tflite").path
        #expect(
            FileManager.default.createFile(
                atPath: truncated, contents: Data(try TestAssets.bytes(TestAssets.model(ssdV1)).prefix(30_000))))
        for path in [garbage, truncated] {
            let e = Self.error { _ = try ObjectDetector(modelPath: path) }
            #expect(e?.tasksCode == .invalidArgumentError, "\(path)")
            #expect(
                e?.message.hasPrefix("INVALID_ARGUMENT: The model is not a valid Flatbuffer buffer") == true,
                "\(e?.message ?? "")")
        }
    }

    @Test("a model without metadata")
    func noMetadata() {
        let e = Self.error {
            _ = try ObjectDetector(modelPath: TestAssets.model("ssd_mobilenet_v1_coco_quant_no_metadata.tflite"))
        }
        #expect(e?.tasksCode == .invalidArgumentError)
        #expect(
            e?.message == "INVALID_ARGUMENT: Object detection models require TFLite Model Metadata but none was found")
    }

    @Test("maxResults = 0, and allowlist with denylist")
    func optionErrors() {
        let zero = Self.options(TestAssets.model(ssdV1))
        zero.maxResults = 0
        let e1 = Self.error { _ = try ObjectDetector(options: zero) }
        #expect(e1?.tasksCode == .invalidArgumentError)
        #expect(e1?.message == "INVALID_ARGUMENT: Invalid `max_results` option: value must be != 0")
        let both = Self.options(TestAssets.model(ssdV1))
        both.categoryAllowlist = ["dog"]
        both.categoryDenylist = ["cat"]
        let e2 = Self.error { _ = try ObjectDetector(options: both) }
        #expect(
            e2?.message
                == "INVALID_ARGUMENT: `category_allowlist` and `category_denylist` are mutually exclusive options.")
    }

    @Test("the GPU delegate is refused on Linux")
    func gpu() {
        let o = Self.options(TestAssets.model(ssdV1))
        o.baseOptions.delegate = .GPU
        #expect(Self.error { _ = try ObjectDetector(options: o) }?.tasksCode == .unimplementedError)
    }

    @Test("a missing or corrupt picture")
    func badPictures() throws {
        #expect(Self.error { _ = try MPImage(contentsOfFile: "/nonexistent.jpg") }?.tasksCode == .notFoundError)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString).jpg").path
        #expect(
            FileManager.default.createFile(
                atPath: path, contents: Data(try TestAssets.bytes(TestAssets.image("dog.jpg")).prefix(5000))))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let e = Self.error { _ = try MPImage(contentsOfFile: path) }
        #expect(e?.tasksCode == .invalidArgumentError)
        #expect(e?.message.contains("Corrupt JPEG") == true)
    }
}

@Suite("ObjectDetector with optimizeHybridModels", .enabled(if: TestAssets.shouldRun))
struct HybridOptimizationTests {
    @Test("FPNLite still finds MediaPipe's top detections on dog.jpg, scores within 0.02")
    func topDetections() throws {
        let model = "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite"
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = TestAssets.model(model)
        options.baseOptions.optimizeHybridModels = true
        options.maxResults = 3
        let result = try ObjectDetector(options: options).detect(
            image: try MPImage(contentsOfFile: TestAssets.image("dog.jpg")))
        let golden = try DetectorGolden.expected(model: model, photo: "dog.jpg", case: "default").prefix(3)
        #expect(result.detections.count == 3)
        for e in golden {
            #expect(
                result.detections.contains { d in
                    let b = d.boundingBox
                    return d.categories[0].categoryName == e.name && abs(d.categories[0].score - e.score) <= 0.02
                        && zip([Int(b.origin.x), Int(b.origin.y), Int(b.size.width), Int(b.size.height)], e.box)
                            .allSatisfy { abs($0 - $1) <= 3 }
                }, "\(e.name ?? "?") \(e.score) \(e.box)")
        }
    }
}
