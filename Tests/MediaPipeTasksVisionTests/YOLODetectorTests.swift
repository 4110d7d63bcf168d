import Foundation
import MediaPipeTasksVision
import Testing
import VisionTestSupport

/// YOLO models in MediaPipe's `ObjectDetector`: our detections against Ultralytics 8.4.190's own
/// `predict` on the same `.tflite` files and photos (Tests/Goldens/ultralytics_yolo.json, made by
/// scripts/yolo/make_fixtures.py and variants.py): the float32, float16-weight and int8 detection
/// heads (int8 with float or int8 input/output), NHWC input with a [1, N, 4+C] head, and the
/// end-to-end model.
@Suite("YOLO detectors: Ultralytics' predict", .enabled(if: TestAssets.shouldRun))
struct YOLODetectorTests {
    static func fixture(_ name: String) -> String {
        TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/yolo").appendingPathComponent(name).path
    }

    struct Box {
        var box: [Double]
        var score: Double
        var classIndex: Int
    }

    static func goldens() throws -> (names: [String], models: [String: [String: [Box]]]) {
        let golden = try Goldens.dictionary("ultralytics_yolo.json")
        let namesByIndex = try #require(golden["names"] as? [String: String])
        let names = (0..<namesByIndex.count).compactMap { namesByIndex[String($0)] }
        let models = try #require(golden["models"] as? [String: [String: [[String: Any]]]])
        return (
            names,
            models.mapValues { photos in
                photos.mapValues { boxes in
                    boxes.map {
                        Box(
                            box: $0["box"] as? [Double] ?? [], score: $0["score"] as? Double ?? -1,
                            classIndex: $0["class"] as? Int ?? -1)
                    }
                }
            }
        )
    }

    static func detector(
        _ model: String, configure: (ObjectDetectorOptions) -> Void = { _ in }
    ) throws -> ObjectDetector {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = fixture(model)
        options.scoreThreshold = 0.25
        configure(options)
        return try ObjectDetector(options: options)
    }

    /// Every golden box is found once, same class, score within 1e-3, corners within 1 px; nothing else.
    @Test(
        """
        equal to Ultralytics' predict on every photo: float32, float16, int8 (float and int8 I/O) and \
        NHWC/transposed heads, end to end
        """,
        arguments: [
            "yolov8t_float32.tflite", "yolov8t_float16.tflite", "yolov8t_int8.tflite", "yolov8t_int8io.tflite",
            "yolov8t_nhwc_transposed.tflite",
            "yolo26t_e2e_float32.tflite",
        ])
    func goldens(model: String) throws {
        let (names, models) = try Self.goldens()
        // The NHWC/transposed variant computes what the float model does (scripts/yolo/variants.py).
        let photos = try #require(models[model == "yolov8t_nhwc_transposed.tflite" ? "yolov8t_float32.tflite" : model])
        let detector = try Self.detector(model)
        var compared = 0
        for (photo, expected) in photos.sorted(by: { $0.key < $1.key }) {
            let found = try detector.detect(
                image: try MPImage(contentsOfFile: TestAssets.image(photo), jpegDecoding: .openCV)
            ).detections
            #expect(
                found.count == expected.count, "\(model) \(photo): \(found.count) boxes, Ultralytics \(expected.count)")
            var unmatched = found
            for e in expected {
                let match = unmatched.firstIndex { d in
                    let b = d.boundingBox
                    let corners = [Double(b.minX), Double(b.minY), Double(b.maxX), Double(b.maxY)]
                    return d.categories.first?.index == e.classIndex
                        && zip(corners, e.box).allSatisfy { abs($0 - $1) <= 1 }
                        && abs(Double(d.categories.first?.score ?? -1) - e.score) <= 1e-3
                }
                guard let match else {
                    Issue.record(
                        """
                        \(model) \(photo): no box for \(e.box) \(names[e.classIndex]) \(e.score) in \
                        \(found.map { ($0.boundingBox, $0.categories.first?.score ?? -1) })
                        """
                    )
                    continue
                }
                #expect(unmatched[match].categories.first?.categoryName == names[e.classIndex])
                unmatched.remove(at: match)
                compared += 1
            }
        }
        #expect(compared > 0)
    }

    /// (score, class name) of each detection, in result order.
    static func scored(_ detector: ObjectDetector, _ photo: String) throws -> [(Float, String)] {
        try detector.detect(image: try MPImage(contentsOfFile: TestAssets.image(photo), jpegDecoding: .openCV))
            .detections.map {
                ($0.categories.first?.score ?? -1, $0.categories.first?.categoryName ?? "")
            }
    }

    @Test(
        """
        MediaPipe's options: default threshold (Ultralytics' 0.25), threshold, maxResults, allow and deny lists, \
        class-agnostic NMS
        """
    )
    func options() throws {
        let model = "yolov8t_float32.tflite", photo = "person.jpg"
        let all = try Self.scored(try Self.detector(model), photo)
        #expect(all.map(\.1) == ["horse", "person", "horse", "dog"] && all.map(\.0) == all.map(\.0).sorted(by: >))
        // Left at MediaPipe's default, a YOLO model keeps Ultralytics' 0.25.
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = Self.fixture(model)
        #expect(try Self.scored(try ObjectDetector(options: options), photo).map(\.0) == all.map(\.0))
        #expect(
            try Self.scored(try Self.detector(model) { $0.scoreThreshold = 0.6 }, photo).map(\.0)
                == all.map(\.0).filter { $0 >= 0.6 })
        #expect(
            try Self.scored(try Self.detector(model) { $0.maxResults = 2 }, photo).map(\.0)
                == Array(all.map(\.0).prefix(2)))
        // Allow/deny by label name; an anchor takes its best allowed class (MediaPipe's rule), so the
        // allowed boxes found before are all still there.
        let dogs = try Self.scored(try Self.detector(model) { $0.categoryAllowlist = ["dog"] }, photo)
        #expect(
            !dogs.isEmpty && dogs.allSatisfy { $0.1 == "dog" }
                && all.filter { $0.1 == "dog" }.allSatisfy { d in dogs.contains { $0.0 == d.0 } })
        let noHorse = try Self.scored(try Self.detector(model) { $0.categoryDenylist = ["horse"] }, photo)
        #expect(
            noHorse.allSatisfy { $0.1 != "horse" }
                && all.filter { $0.1 != "horse" }.allSatisfy { d in noHorse.contains { $0.0 == d.0 } })
        // One box per object whatever its class: the dog box inside the horse's goes.
        let agnostic = try Self.scored(
            try Self.detector(model) {
                $0.yolo.classAgnostic = true; $0.yolo.iouThreshold = 0.3
            }, photo)
        #expect(agnostic.count < all.count && agnostic.allSatisfy { a in all.contains { $0.0 == a.0 } })
    }

    @Test("errors: a head override that does not fit, bad YOLO options, MediaPipe's option errors")
    func errors() throws {
        func message(_ configure: (ObjectDetectorOptions) -> Void) -> String? {
            do {
                _ = try Self.detector("yolov8t_float32.tflite", configure: configure)
                return nil
            } catch let e as TasksError {
                #expect(e.tasksCode == .invalidArgumentError)
                return e.message
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message { $0.yolo.head = .endToEnd }?.hasPrefix(
                "INVALID_ARGUMENT: No YOLO decoder fits this model's outputs ([1, 17, 756] FLOAT32): [1, K, 6] needs "
                    + "6 columns."
            ) == true)
        #expect(
            message { $0.yolo.iouThreshold = 1.5 }
                == "INVALID_ARGUMENT: The YOLO IoU threshold must be between 0 and 1, got 1.5.")
        #expect(
            message { $0.yolo.maxDetections = 0 }
                == "INVALID_ARGUMENT: The YOLO maximum detection count must be positive, got 0.")
        #expect(message { $0.maxResults = 0 } == "INVALID_ARGUMENT: Invalid `max_results` option: value must be != 0")
        #expect(
            message {
                $0.categoryAllowlist = ["dog"]; $0.categoryDenylist = ["cat"]
            }
                == "INVALID_ARGUMENT: `category_allowlist` and `category_denylist` are mutually exclusive options.")
        // Forcing the transposed reading of a [1, 17, 756] head gives a 752-class head: it loads, and
        // the override is what the caller asked for.
        #expect(message { $0.yolo.head = .channelsLast } == nil)
    }
}
