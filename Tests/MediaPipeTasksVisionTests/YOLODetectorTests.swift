import Foundation
import MediaPipeTasksVision
import Testing
import VisionTestSupport

/// YOLO models in MediaPipe's `ObjectDetector`: our detections against Ultralytics 8.4.190's own
/// `predict` on the same `.tflite` files and photos (Tests/Goldens/ultralytics_yolo.json, made by
/// scripts/yolo/make_fixtures.py and variants.py): the float and int8 detection heads (int8 with
/// float or int8 input/output), NHWC input with a [1, N, 4+C] head, and the end-to-end model.
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
                    boxes.map { Box(box: $0["box"] as? [Double] ?? [], score: $0["score"] as? Double ?? -1, classIndex: $0["class"] as? Int ?? -1) }
                }
            }
        )
    }

    static func detector(_ model: String, configure: (ObjectDetectorOptions) -> Void = { _ in }) throws -> ObjectDetector {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = fixture(model)
        options.scoreThreshold = 0.25
        configure(options)
        return try ObjectDetector(options: options)
    }

    /// Every golden box is found once, same class, score within 1e-3, corners within 1 px; nothing else.
    @Test(
        "equal to Ultralytics' predict on every photo: float, int8 (float and int8 I/O) and NHWC/transposed heads, end to end",
        arguments: [
            "yolov8t_float32.tflite", "yolov8t_int8.tflite", "yolov8t_int8io.tflite", "yolov8t_nhwc_transposed.tflite", "yolo26t_e2e_float32.tflite",
        ])
    func goldens(model: String) throws {
        let (names, models) = try Self.goldens()
        // The NHWC/transposed variant computes what the float model does (scripts/yolo/variants.py).
        let photos = try #require(models[model == "yolov8t_nhwc_transposed.tflite" ? "yolov8t_float32.tflite" : model])
        let detector = try Self.detector(model)
        var compared = 0
        for (photo, expected) in photos.sorted(by: { $0.key < $1.key }) {
            let found = try detector.detect(image: try MPImage(contentsOfFile: TestAssets.image(photo), jpegDecoding: .openCV)).detections
            #expect(found.count == expected.count, "\(model) \(photo): \(found.count) boxes, Ultralytics \(expected.count)")
            var unmatched = found
            for e in expected {
                let match = unmatched.firstIndex { d in
                    let b = d.boundingBox
                    let corners = [Double(b.minX), Double(b.minY), Double(b.maxX), Double(b.maxY)]
                    return d.categories.first?.index == e.classIndex && zip(corners, e.box).allSatisfy { abs($0 - $1) <= 1 }
                        && abs(Double(d.categories.first?.score ?? -1) - e.score) <= 1e-3
                }
                guard let match else {
                    Issue.record(
                        "\(model) \(photo): no box for \(e.box) \(names[e.classIndex]) \(e.score) in \(found.map { ($0.boundingBox, $0.categories.first?.score ?? -1) })"
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
}
