import Foundation
import MLKit
import Testing
import VisionTestSupport

/// `results(in:)` against MediaPipe 1.2.2's ImageClassifier on the same model and photo, with ML
/// Kit's rules applied: MediaPipe with the model's own threshold (the golden's `model_threshold`
/// case), at most 10 labels. Same labels and indices, confidences ±0.01, ties in any order.
@Suite("Image labeling against MediaPipe 1.2.2", .enabled(if: TestAssets.shouldRun))
struct LabelerGoldenTests {
    nonisolated(unsafe) static let golden: [String: Any] = (try? Goldens.dictionary("mediapipe_classifier.json")) ?? [:]
    static let models = [
        "aiy_vision_classifier_birds_V1_3.tflite", "mobilenet_v2_1.0_224_inat_bird_quant.tflite",
        "mobilenet_v2_1.0_224_quant.tflite", "mobilenet_v1_0.25_128_quant.tflite",
        "tf2_mobilenet_v2_1.0_224_ptq.tflite",
    ]

    @Test("every shared photo", arguments: models)
    func matrix(model: String) throws {
        let labeler = ImageLabeler.imageLabeler(
            options: CustomImageLabelerOptions(localModel: LocalModel(path: TestAssets.model(model))))
        #expect(labeler.modelError == nil)
        var failures = 0
        for photo in TestAssets.photoNames {
            let key = "\(model)|\(photo)|model_threshold"
            let heads = try #require(
                (Self.golden["results"] as? [String: Any])?[key] as? [[String: Any]], "no golden for \(key)")
            let head = try #require(heads.first)
            let top = head["top"] as? [[String: Any]] ?? []
            let count = min(10, head["count"] as? Int ?? 0)
            let image = VisionImage(image: try #require(UIImage(contentsOfFile: TestAssets.image(photo))))
            let labels = try labeler.results(in: image)
            func fail(_ message: String) { Issue.record("\(key): \(message)"); failures += 1 }
            if labels.count != count { fail("\(labels.count) labels, expected \(count)") }
            for (i, t) in top.prefix(count).enumerated() where i < labels.count {
                let score = Float(t["score"] as? Double ?? -1)
                if abs(labels[i].confidence - score) > 0.01 {
                    fail("confidence #\(i) \(labels[i].confidence), MediaPipe \(score)")
                }
                // Labels tied with the last one kept may be any of the tied ones (ties as sets).
                let tiedAtCut = score <= (labels.last?.confidence ?? 0)
                if !tiedAtCut
                    && !labels.contains(where: {
                        $0.index == t["index"] as? Int && $0.text == t["name"] as? String
                            && abs($0.confidence - score) <= 0.01
                    })
                {
                    fail("MediaPipe's \(t["name"] ?? "?") (\(t["index"] ?? "?")) \(score) not found")
                }
            }
        }
        #expect(failures == 0)
    }
}
