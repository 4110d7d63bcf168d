import Foundation
import Imaging
import MediaPipeTasksVision
import Testing
import VisionTestSupport

@Suite("ObjectDetector against MediaPipe 1.2.2 on every shared photo", .enabled(if: TestAssets.shouldRun))
struct ObjectDetectorGoldenTests {
    static let models = ["ssd_mobilenet_v1_coco_quant_metadata.tflite", "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite"]
    static let cases: [(name: String, configure: @Sendable (ObjectDetectorOptions) -> Void, orientation: UIImage.Orientation)] = [
        ("default", { _ in }, .up),
        ("max5_thr0.3", { $0.maxResults = 5; $0.scoreThreshold = 0.3 }, .up),
        ("allow_dog_cat_person", { $0.categoryAllowlist = ["dog", "cat", "person"] }, .up),
        ("deny_person_car", { $0.categoryDenylist = ["person", "car"] }, .up),
        ("left", { _ in }, .left),
        ("right", { _ in }, .right),
        ("down", { _ in }, .down),
    ]

    @Test("same detections, labels, boxes ±2 px and scores ±0.02", arguments: models)
    func matrix(model: String) throws {
        var failures = 0
        for (name, configure, orientation) in Self.cases {
            let options = ObjectDetectorOptions()
            options.baseOptions.modelAssetPath = TestAssets.model(model)
            configure(options)
            let detector = try ObjectDetector(options: options)
            for photo in TestAssets.photoNames {
                let image = try MPImage(contentsOfFile: TestAssets.image(photo), orientation: orientation)
                failures += try DetectorGolden.check(try detector.detect(image: image), model: model, photo: photo, case: name)
            }
        }
        #expect(failures == 0)
    }
}
