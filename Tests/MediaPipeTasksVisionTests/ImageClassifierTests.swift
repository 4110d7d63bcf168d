import Foundation
import Imaging
import MediaPipeTasksVision
import TFLiteModel
import Testing
import VisionTestSupport

@Suite("ImageClassifier on synthetic models", .enabled(if: TestAssets.shouldRun))
struct ImageClassifierSyntheticTests {
    static let picture = MPImage(
        bitmap: (try? Bitmap(width: 32, height: 24, format: .rgb8, fill: (10, 200, 30)))
            ?? {
                fatalError("test picture")  // a 32×24 bitmap is always valid
            }())

    static func classifier(
        _ heads: [SyntheticModels.Head], normalization: (mean: Float, std: Float)? = (127.5, 127.5),
        metadataHeads: Int? = nil, _ configure: (ImageClassifierOptions) -> Void = { _ in }
    ) throws -> ImageClassifier {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = Data(
            try SyntheticModels.classifier(heads: heads, normalization: normalization, metadataHeads: metadataHeads))
        configure(options)
        return try ImageClassifier(options: options)
    }

    static func message(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch let e as TasksError { return e.message } catch { return "\(error)" }
    }

    static let twoHeads: [SyntheticModels.Head] = [
        .init(
            name: "animals", values: [0.1, 0.7, 0.2], labels: ["cat", "dog", "bird"],
            displayNames: ("fr", ["chat", "chien", "oiseau"])),
        .init(name: "colours", values: [0.4, 0.6], labels: ["red", "green"]),
    ]

    @Test("a float model with normalization and two heads with their own labels and a display-name locale")
    func twoHeadsWithLocale() throws {
        let result = try Self.classifier(Self.twoHeads) { $0.displayNamesLocale = "fr" }.classify(image: Self.picture)
        let heads = result.classificationResult.classifications
        #expect(heads.map(\.headIndex) == [0, 1])
        #expect(heads.map(\.headName) == ["animals", "colours"])
        #expect(heads[0].categories.map(\.categoryName) == ["dog", "bird", "cat"])
        #expect(heads[0].categories.map(\.displayName) == ["chien", "oiseau", "chat"])
        #expect(heads[0].categories.map(\.index) == [1, 2, 0])
        #expect(heads[0].categories.map(\.score) == [0.7, 0.2, 0.1])
        #expect(heads[1].categories.map(\.categoryName) == ["green", "red"])
        #expect(heads[1].categories.allSatisfy { $0.displayName == nil })
        #expect(result.timestampInMilliseconds == 0 && result.classificationResult.timestampInMilliseconds == 0)
        // Default locale "en": no English file, so no display names.
        let english = try Self.classifier(Self.twoHeads).classify(image: Self.picture)
        #expect(english.classificationResult.classifications[0].categories.allSatisfy { $0.displayName == nil })
    }

    @Test("maxResults, thresholds (option over metadata, >=), allow and deny lists per head")
    func options() throws {
        let top1 = try Self.classifier(Self.twoHeads) { $0.maxResults = 1 }.classify(image: Self.picture)
        #expect(
            top1.classificationResult.classifications.map { $0.categories.map(\.categoryName) } == [["dog"], ["green"]])
        let threshold = try Self.classifier(Self.twoHeads) { $0.scoreThreshold = 0.2 }.classify(image: Self.picture)
        #expect(threshold.classificationResult.classifications[0].categories.map(\.categoryName) == ["dog", "bird"])
        let allowed = try Self.classifier(Self.twoHeads) { $0.categoryAllowlist = ["cat", "red", "unknown"] }.classify(
            image: Self.picture)
        #expect(
            allowed.classificationResult.classifications.map { $0.categories.map(\.categoryName) } == [
                ["cat"], ["red"],
            ])
        let denied = try Self.classifier(Self.twoHeads) { $0.categoryDenylist = ["dog"] }.classify(image: Self.picture)
        #expect(denied.classificationResult.classifications[0].categories.map(\.categoryName) == ["bird", "cat"])
        var withMetadataThreshold = Self.twoHeads
        withMetadataThreshold[0].scoreThreshold = 0.15
        let metadata = try Self.classifier(withMetadataThreshold) { $0.usesModelScoreThreshold = true }.classify(
            image: Self.picture)
        #expect(metadata.classificationResult.classifications[0].categories.map(\.categoryName) == ["dog", "bird"])
        #expect(metadata.classificationResult.classifications[1].categories.count == 2)
        // iOS's default 0 always applies, in place of the metadata's threshold.
        let iosDefault = try Self.classifier(withMetadataThreshold).classify(image: Self.picture)
        #expect(iosDefault.classificationResult.classifications[0].categories.count == 3)
        let overridden = try Self.classifier(withMetadataThreshold) { $0.scoreThreshold = 0.3 }.classify(
            image: Self.picture)
        #expect(overridden.classificationResult.classifications[0].categories.map(\.categoryName) == ["dog"])
    }

    @Test("score calibration, a quantized head, a BOOL head, a head without metadata name or labels")
    func headKinds() throws {
        let calibrated = SyntheticModels.Head(
            name: "calibrated", values: [0.5, 0.9], labels: ["a", "b"],
            calibration: (.identity, 0.05, "1.0,2.0,-1.0\n\n"))
        let result = try Self.classifier([calibrated, .init(name: nil, values: [0.25, 0.75])]).classify(
            image: Self.picture)
        let heads = result.classificationResult.classifications
        // a: 1 / (1 + e^−(2·0.5 − 1)) = 0.5; b: no parameters → default 0.05.
        #expect(heads[0].categories.map(\.categoryName) == ["a", "b"])
        #expect(abs(heads[0].categories[0].score - 0.5) < 1e-6 && heads[0].categories[1].score == 0.05)
        #expect(
            heads[1].headName == "" && heads[1].categories.map(\.index) == [1, 0]
                && heads[1].categories[0].categoryName == nil)

        let quantized = try Self.classifier([.init(name: "q", kind: .uint8, values: [0.2, 0.8], labels: ["x", "y"])])
            .classify(image: Self.picture)
        let q = quantized.classificationResult.classifications[0].categories
        #expect(q.map(\.categoryName) == ["y", "x"])
        #expect(abs(q[0].score - 204.0 / 255) < 1e-6 && abs(q[1].score - 51.0 / 255) < 1e-6)

        let binary = try Self.classifier([.init(name: "is_thing", kind: .bool, values: [3], labels: ["yes", "no"])])
            .classify(image: Self.picture)
        let b = binary.classificationResult.classifications[0].categories
        #expect(b.map(\.categoryName) == ["yes", "no"] && b.map(\.score) == [1, 0] && b.map(\.index) == [0, 1])
    }

    @Test("a uint8 model without any metadata: index-only categories; lists need labels")
    func noMetadata() throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = Data(
            try SyntheticModels.classifier(
                heads: [.init(name: "x", values: [0.3, 0.6, 0.1])],
                uint8Input: true, withMetadata: false))
        let result = try ImageClassifier(options: options).classify(image: Self.picture)
        let head = try #require(result.classificationResult.classifications.first)
        #expect(head.headName == "" && head.categories.map(\.index) == [1, 0, 2])
        #expect(head.categories.allSatisfy { $0.categoryName == nil && $0.displayName == nil })
        #expect(abs(head.categories[0].score - 0.6) < 1e-6)
        options.categoryDenylist = ["x"]
        #expect(
            Self.message { _ = try ImageClassifier(options: options) }?.hasPrefix(
                "INVALID_ARGUMENT: Using `category_allowlist`") == true)
    }

    @Test("prints in the seed's format")
    func description() throws {
        let result = try Self.classifier([Self.twoHeads[0]]) {
            $0.displayNamesLocale = "fr"; $0.maxResults = 2
        }.classify(image: Self.picture)
        #expect(
            result.description == """
                ImageClassifierResult:
                 Classifications #0 (single classification head):
                  head index: 0
                  category #0:
                   category name: "dog"
                   display name: "chien"
                   score: 0.70000
                   index: 1
                  category #1:
                   category name: "bird"
                   display name: "oiseau"
                   score: 0.20000
                   index: 2
                """)
    }

    @Test("every classifier error of the reference's table")
    func errors() throws {
        #expect(
            Self.message { _ = try Self.classifier(Self.twoHeads) { $0.maxResults = 0 } }
                == "INVALID_ARGUMENT: Invalid `max_results` option: value must be != 0.")
        #expect(
            Self.message {
                _ = try Self.classifier(Self.twoHeads) {
                    $0.categoryAllowlist = ["cat"]; $0.categoryDenylist = ["dog"]
                }
            }
                == "INVALID_ARGUMENT: `category_allowlist` and `category_denylist` are mutually exclusive options.")
        #expect(
            Self.message { _ = try Self.classifier([.init(name: "n", kind: .int32, values: [1, 2])]) }
                == "INVALID_ARGUMENT: Expected output tensor at index 0 to have type UINT8 or FLOAT32 or BOOL, found "
                + "INT32 instead."
        )
        #expect(
            Self.message {
                _ = try Self.classifier([.init(name: "f", values: [1]), .init(name: "q", kind: .uint8, values: [0.5])])
            }
                == "INVALID_ARGUMENT: Expected either all or none of the output tensors to be quantized, but found 1 "
                + "quantized outputs for 2 total outputs."
        )
        #expect(
            Self.message { _ = try Self.classifier(Self.twoHeads, metadataHeads: 1) }
                == "INVALID_ARGUMENT: Mismatch between number of output tensors (2) and output tensors metadata (1).")
        #expect(
            Self.message {
                _ = try Self.classifier([.init(name: "n", values: [1, 2])]) { $0.categoryAllowlist = ["a"] }
            }
                == "INVALID_ARGUMENT: Using `category_allowlist` or `category_denylist` requires labels to be present "
                + "in the TFLite Model Metadata but none was found."
        )
        #expect(
            Self.message { _ = try Self.classifier(Self.twoHeads, normalization: nil) }
                == "NOT_FOUND: Input tensor has type float32: it requires specifying NormalizationOptions metadata to "
                + "preprocess input images."
        )
        let twoSubgraphs = ImageClassifierOptions()
        twoSubgraphs.baseOptions.modelAssetBuffer = Data(
            try SyntheticModels.classifier(heads: Self.twoHeads, subgraphs: 2))
        #expect(
            Self.message { _ = try ImageClassifier(options: twoSubgraphs) }
                == "INVALID_ARGUMENT: Classification tflite models are assumed to have a single subgraph.")
        // Input checks run before option checks: a bad model with maxResults = 0 reports the model.
        #expect(
            Self.message { _ = try Self.classifier(Self.twoHeads, normalization: nil) { $0.maxResults = 0 } }?
                .hasPrefix("NOT_FOUND") == true)
        // A label file whose count differs from the classes fails at classification time.
        let mismatched = try Self.classifier([.init(name: "n", values: [1, 2, 3], labels: ["only", "two"])])
        let e = Self.message { _ = try mismatched.classify(image: Self.picture) }
        #expect(
            e?.hasPrefix("INTERNAL: The number of classes (3) of head 0 does not match its number of labels (2)")
                == true, "\(e ?? "")")
    }

    @Test("regions of interest: the crop is what is classified, in unrotated coordinates")
    func regionOfInterest() throws {
        // Left half red, right half blue; a region inside the red half (its bilinear taps never reach
        // the blue) must classify exactly like an all-red picture.
        var pixels = [UInt8]()
        for _ in 0..<100 { for x in 0..<200 { pixels += x < 100 ? [220, 20, 20] : [20, 20, 220] } }
        let image = MPImage(bitmap: try Bitmap(width: 200, height: 100, format: .rgb8, pixels: pixels))
        let classifier = try ImageClassifier(modelPath: TestAssets.model("mobilenet_v1_0.25_128_quant.tflite"))
        let left = try classifier.classify(image: image, regionOfInterest: CGRect(x: 0, y: 0, width: 0.4, height: 1))
        let right = try classifier.classify(image: image, regionOfInterest: CGRect(x: 0.6, y: 0, width: 0.4, height: 1))
        let redImage = MPImage(bitmap: try Bitmap(width: 100, height: 100, format: .rgb8, fill: (220, 20, 20)))
        let red = try ImageClassifier(modelPath: TestAssets.model("mobilenet_v1_0.25_128_quant.tflite")).classify(
            image: redImage)
        #expect(
            left.classificationResult.classifications[0].categories.prefix(5)
                == red.classificationResult.classifications[0].categories.prefix(5))
        #expect(
            left.classificationResult.classifications[0].categories.first
                != right.classificationResult.classifications[0].categories.first)
    }
}

final class ClassificationCollector: NSObject, ImageClassifierLiveStreamDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var timestamps: [Int] = []
    private(set) var results: [ImageClassifierResult] = []
    func imageClassifier(
        _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int, error: Error?
    ) {
        lock.withLock {
            timestamps.append(timestampInMilliseconds)
            if let result { results.append(result) }
        }
    }
}

@Suite("ImageClassifier running modes", .enabled(if: TestAssets.shouldRun))
struct ImageClassifierModeTests {
    static func options(
        _ mode: RunningMode, _ delegate: (any ImageClassifierLiveStreamDelegate)? = nil
    ) -> ImageClassifierOptions {
        let o = ImageClassifierOptions()
        o.baseOptions.modelAssetPath = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")
        o.runningMode = mode
        o.imageClassifierLiveStreamDelegate = delegate
        o.maxResults = 3
        return o
    }

    @Test("image, video and live stream give the same categories; modes and timestamps are enforced")
    func modes() throws {
        let image = try MPImage(contentsOfFile: TestAssets.image("cat_720p.jpg"))
        let still = try ImageClassifier(options: Self.options(.image)).classify(image: image)
        #expect(still.classificationResult.classifications[0].categories.first?.categoryName == "Egyptian cat")
        let video = try ImageClassifier(options: Self.options(.video))
        #expect(
            try video.classify(videoFrame: image, timestampInMilliseconds: 10).classificationResult.classifications
                == still.classificationResult.classifications)
        #expect(
            ImageClassifierSyntheticTests.message {
                _ = try video.classify(videoFrame: image, timestampInMilliseconds: 10)
            }
                == "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        #expect(
            ImageClassifierSyntheticTests.message { _ = try video.classify(image: image) }
                == "The vision task is not initialized with image mode. Current Running Mode: Video")
        let collector = ClassificationCollector()
        let live = try ImageClassifier(options: Self.options(.liveStream, collector))
        try live.classifyAsync(image: image, timestampInMilliseconds: 5)
        live.waitUntilIdle()
        try live.classifyAsync(
            image: image, timestampInMilliseconds: 6, regionOfInterest: CGRect(x: 0.1, y: 0.1, width: 0.5, height: 0.5))
        live.waitUntilIdle()
        #expect(collector.timestamps == [5, 6])
        #expect(
            collector.results.first?.classificationResult.classifications == still.classificationResult.classifications)
        #expect(
            ImageClassifierSyntheticTests.message { _ = try ImageClassifier(options: Self.options(.liveStream)) }?
                .hasPrefix("The vision task is in live stream mode.") == true)
        let mirrored = try MPImage(contentsOfFile: TestAssets.image("cat_720p.jpg"), orientation: .leftMirrored)
        #expect(
            ImageClassifierSyntheticTests.message {
                _ = try ImageClassifier(options: Self.options(.image)).classify(image: mirrored)
            }?
            .hasPrefix("Unsupported UIImageOrientation.") == true)
    }
}

/// MediaPipe 1.2.2's result timestamps (`Tests/Goldens/mediapipe_timestamps.json`, from its Python API):
/// the classifier's result carries the input's timestamp in every running mode.
@Suite("Result timestamps as MediaPipe's", .enabled(if: TestAssets.shouldRun))
struct ResultTimestampTests {
    static func golden() throws -> [String: Any] {
        try #require(try Goldens.dictionary("mediapipe_timestamps.json")["classifier"] as? [String: Any])
    }

    static func top(_ result: ImageClassifierResult) -> String? {
        result.classificationResult.classifications.first?.categories.first?.categoryName
    }

    @Test("image mode: 0, 1000, 2000 in the task result and its classification result")
    func imageMode() throws {
        let golden = try Self.golden()
        let classifier = try ImageClassifier(options: ImageClassifierModeTests.options(.image))
        let image = try MPImage(contentsOfFile: TestAssets.image(try #require(golden["image"] as? String)))
        let results = try (0..<3).map { _ in try classifier.classify(image: image) }
        let expected = try #require(golden["image_mode"] as? [Int])
        #expect(results.map(\.classificationResult.timestampInMilliseconds) == expected)
        #expect(results.map(\.timestampInMilliseconds) == expected)
        let tops = try #require(golden["image_mode_top"] as? [[String: Any]])
        #expect(results.map(Self.top) == tops.map { $0["name"] as? String })
    }

    @Test("video mode: each frame's timestamp")
    func videoMode() throws {
        let golden = try #require(try Self.golden()["video_mode"] as? [String: Any])
        let classifier = try ImageClassifier(options: ImageClassifierModeTests.options(.video))
        let image = try MPImage(contentsOfFile: TestAssets.image("dog.jpg"))
        let timestamps = try #require(golden["timestamps"] as? [Int])
        let results = try timestamps.map { try classifier.classify(videoFrame: image, timestampInMilliseconds: $0) }
        #expect(results.map(\.classificationResult.timestampInMilliseconds) == golden["result_timestamps"] as? [Int])
        #expect(results.map(\.timestampInMilliseconds) == golden["result_timestamps"] as? [Int])
    }

    @Test("live stream: each frame's timestamp in the result and in the callback")
    func liveStream() throws {
        let golden = try #require(try Self.golden()["live_stream"] as? [String: Any])
        let collector = ClassificationCollector()
        let classifier = try ImageClassifier(options: ImageClassifierModeTests.options(.liveStream, collector))
        let image = try MPImage(contentsOfFile: TestAssets.image("dog.jpg"))
        for t in try #require(golden["timestamps"] as? [Int]) {
            try classifier.classifyAsync(image: image, timestampInMilliseconds: t)
            classifier.waitUntilIdle()
        }
        #expect(
            collector.results.map(\.classificationResult.timestampInMilliseconds) == golden["result_timestamps"]
                as? [Int])
        #expect(collector.timestamps == golden["callback_timestamps"] as? [Int])
    }
}
