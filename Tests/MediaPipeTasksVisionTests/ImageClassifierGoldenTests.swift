import Foundation
import MediaPipeTasksVision
import Testing
import VisionTestSupport

/// MediaPipe 1.2.2's classifier results (Tests/Goldens/mediapipe_classifier.json) and the rule:
/// same heads (index, name), same number of categories, the top ten's scores within ±0.01 in order,
/// and each of MediaPipe's top-ten categories found among ours with a score within ±0.01 (ties in
/// any order).
enum ClassifierGolden {
    /// MediaPipe's results on this architecture (on arm64 its aarch64 build's, whose turned pictures are
    /// resampled with fused multiply-adds, as ours are there: `WarpMatrix.fused(_:block:)`).
    nonisolated(unsafe) static let golden: [String: Any] = (try? Goldens.dictionary("mediapipe_classifier.json")) ?? [:]

    /// The golden results for `key`.
    static func heads(_ key: String) -> [[String: Any]]? {
        (golden["results"] as? [String: Any])?[key] as? [[String: Any]]
    }

    static var roi: CGRect {
        let r = golden["roi"] as? [Double] ?? [0, 0, 1, 1]
        return CGRect(x: r[0], y: r[1], width: r[2], height: r[3])
    }

    static func allowlist(_ model: String) -> [String] {
        (golden["allowlists"] as? [String: [String]])?[model] ?? []
    }

    /// MediaPipe's top categories (name, score) of the first head for one case.
    static func top(model: String, photo: String, case name: String) throws -> [(name: String?, score: Float)] {
        let key = "\(model)|\(photo)|\(name)"
        let heads = try #require(Self.heads(key), "no golden for \(key)")
        let top = heads.first?["top"] as? [[String: Any]] ?? []
        return top.map { ($0["name"] as? String, Float($0["score"] as? Double ?? -1)) }
    }

    @discardableResult
    static func check(_ result: ImageClassifierResult, model: String, photo: String, case name: String) throws -> Int {
        let key = "\(model)|\(photo)|\(name)"
        let heads = try #require(Self.heads(key), "no golden for \(key)")
        var issues = 0
        func fail(_ message: String) { Issue.record("\(key): \(message)"); issues += 1 }
        let ours = result.classificationResult.classifications
        guard ours.count == heads.count else {
            fail("\(ours.count) heads, MediaPipe has \(heads.count)"); return issues
        }
        for (head, g) in zip(ours, heads) {
            if head.headIndex != g["head_index"] as? Int { fail("head index \(head.headIndex)") }
            if head.headName != g["head_name"] as? String { fail("head name \(head.headName ?? "nil")") }
            if head.categories.count != g["count"] as? Int {
                fail("\(head.categories.count) categories, MediaPipe has \(g["count"] ?? "?")")
            }
            let top = g["top"] as? [[String: Any]] ?? []
            for (i, t) in top.enumerated() where i < head.categories.count {
                let score = Float(t["score"] as? Double ?? -1)
                if abs(head.categories[i].score - score) > 0.01 {
                    fail("score #\(i) \(head.categories[i].score), MediaPipe \(score)")
                }
                let match = head.categories.contains {
                    $0.index == t["index"] as? Int && abs($0.score - score) <= 0.01
                        && $0.categoryName == t["name"] as? String
                        && $0.displayName == t["display"] as? String
                }
                if !match { fail("MediaPipe's \(t["name"] ?? "?") (\(t["index"] ?? "?")) \(score) not found") }
            }
        }
        return issues
    }
}

@Suite("ImageClassifier against MediaPipe 1.2.2 on every shared photo", .enabled(if: TestAssets.shouldRun))
struct ImageClassifierGoldenTests {
    static let models = [
        "aiy_vision_classifier_birds_V1_3.tflite", "mobilenet_v2_1.0_224_inat_bird_quant.tflite",
        "mobilenet_v2_1.0_224_quant.tflite", "mobilenet_v1_0.25_128_quant.tflite",
        "tf2_mobilenet_v2_1.0_224_ptq.tflite",
    ]

    @Test(
        "default, max 5 with threshold 0.3, allowlist, region of interest, turned right, model threshold",
        arguments: models)
    func matrix(model: String) throws {
        var failures = 0
        let cases: [(String, (ImageClassifierOptions) -> Void, Bool, UIImage.Orientation)] = [
            ("default", { _ in }, false, .up),
            (
                "max5_thr0.3",
                {
                    $0.maxResults = 5; $0.scoreThreshold = 0.3
                }, false, .up
            ),
            ("allowlist", { $0.categoryAllowlist = ClassifierGolden.allowlist(model) }, false, .up),
            ("roi", { _ in }, true, .up),
            ("right", { _ in }, false, .right),
            ("model_threshold", { $0.usesModelScoreThreshold = true }, false, .up),
        ]
        for (name, configure, useROI, orientation) in cases {
            let options = ImageClassifierOptions()
            options.baseOptions.modelAssetPath = TestAssets.model(model)
            configure(options)
            let classifier = try ImageClassifier(options: options)
            for photo in TestAssets.photoNames {
                let image = try MPImage(contentsOfFile: TestAssets.image(photo), orientation: orientation)
                let result =
                    useROI
                    ? try classifier.classify(image: image, regionOfInterest: ClassifierGolden.roi)
                    : try classifier.classify(image: image)
                failures += try ClassifierGolden.check(result, model: model, photo: photo, case: name)
            }
        }
        #expect(failures == 0)
    }

    @Test(
        """
        seed 001: the birds classifier with maxResults 5 and iOS's default threshold gives 5 categories, as \
        MediaPipe with threshold 0
        """
    )
    func seedBirds() throws {
        let model = "aiy_vision_classifier_birds_V1_3.tflite"
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestAssets.model(model)
        options.maxResults = 5
        #expect(options.scoreThreshold == 0)
        let result = try ImageClassifier(options: options).classify(
            image: try MPImage(contentsOfFile: TestAssets.image("bird.png")))
        let categories = try #require(result.classificationResult.classifications.first).categories
        #expect(categories.count == 5)
        let golden = try ClassifierGolden.top(model: model, photo: "bird.png", case: "default")
        #expect(categories.prefix(3).map(\.categoryName) == golden.prefix(3).map(\.name))  // the tail may tie
        for (ours, theirs) in zip(categories, golden) { #expect(abs(ours.score - theirs.score) <= 0.01) }
        #expect(categories[0].score > 0.2 && categories[4].score < 0.2)  // below the metadata's 0.2, kept as on iOS
    }
}
