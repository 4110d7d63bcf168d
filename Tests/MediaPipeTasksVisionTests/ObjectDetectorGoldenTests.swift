import Foundation
import Imaging
import MediaPipeTasksVision
import TFLiteModel
import Testing
import VisionTestSupport

@Suite("ObjectDetector against MediaPipe 1.2.2 on every shared photo", .enabled(if: TestAssets.shouldRun))
struct ObjectDetectorGoldenTests {
    static let models = [
        "ssd_mobilenet_v1_coco_quant_metadata.tflite", "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite",
    ]
    static let cases:
        [(name: String, configure: @Sendable (ObjectDetectorOptions) -> Void, orientation: UIImage.Orientation)] = [
            ("default", { _ in }, .up),
            (
                "max5_thr0.3",
                {
                    $0.maxResults = 5; $0.scoreThreshold = 0.3
                }, .up
            ),
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
                failures += try DetectorGolden.check(
                    try detector.detect(image: image), model: model, photo: photo, case: name)
            }
        }
        #expect(failures == 0)
    }
}

@Suite(
    "ObjectDetector on a raw SSD model (DETECTOR_METADATA) against MediaPipe 1.2.2", .enabled(if: TestAssets.shouldRun))
struct RawSSDGoldenTests {
    /// face_detection_short_range.tflite with DETECTOR_METADATA from our writer — the same bytes
    /// `vision-tasks metadata --blazeface-short-range --keypoints 6 --box-scale 128 --no-exp-box-size` writes,
    /// on which scripts/goldens ran MediaPipe.
    static func augmentedModel() throws -> Data {
        let file = try ModelFile(contentsOfFile: TestAssets.model("face_detection_short_range.tflite"))
        let anchors = try SSDAnchors.blazeFaceShortRange.generate()
        let decoding = DetectorMetadata.DecodingOptions(
            numClasses: 1, numBoxes: Int32(anchors.count), numCoords: 16, keypointCoordOffset: 4,
            numKeypoints: 6, numValuesPerKeypoint: 2, xScale: 128, yScale: 128, wScale: 128,
            hScale: 128, applyExponentialOnBoxSize: false, sigmoidScore: true)
        return Data(try DetectorMetadataWriter.write(file, anchors: anchors, decoding: decoding))
    }

    @Test("same faces, boxes, scores and keypoints on every photo, 5 cases")
    func matrix() throws {
        let model = try Self.augmentedModel()
        var failures = 0
        let cases: [(String, Int, Float?, UIImage.Orientation)] = [
            ("default", -1, nil, .up), ("max5_thr0.5", 5, 0.5, .up),
            ("left", -1, nil, .left), ("right", -1, nil, .right), ("down", -1, nil, .down),
        ]
        for (name, maxResults, threshold, orientation) in cases {
            let options = ObjectDetectorOptions()
            options.baseOptions.modelAssetBuffer = model
            options.maxResults = maxResults
            // else iOS's default 0 (the model has no threshold)
            if let threshold { options.scoreThreshold = threshold }
            let detector = try ObjectDetector(options: options)
            for photo in TestAssets.photoNames {
                let result = try detector.detect(
                    image: try MPImage(contentsOfFile: TestAssets.image(photo), orientation: orientation))
                failures += try DetectorGolden.check(
                    result, model: "face_detection_short_range+DETECTOR_METADATA", photo: photo, case: name)
            }
        }
        #expect(failures == 0)
    }

    @Test("anchors follow MediaPipe's SSD anchor layout for BlazeFace")
    func anchors() throws {
        let a = try SSDAnchors.blazeFaceShortRange.generate()
        #expect(a.count == 896)
        #expect(a[0] == DetectorMetadata.Anchor(xCenter: 0.5 / 16, yCenter: 0.5 / 16, width: 1, height: 1))
        #expect(a[1] == a[0])
        #expect(a[512] == DetectorMetadata.Anchor(xCenter: 0.5 / 8, yCenter: 0.5 / 8, width: 1, height: 1))
        #expect(a.last == DetectorMetadata.Anchor(xCenter: 7.5 / 8, yCenter: 7.5 / 8, width: 1, height: 1))
    }
}

@Suite("ObjectDetector on a synthetic raw SSD model with known outputs", .enabled(if: TestAssets.shouldRun))
struct SyntheticRawSSDTests {
    // Three anchors. Raw YXHW (scales 10,10,5,5; exponential sizes):
    //  0: centred on its anchor (0.25, 0.25), size exp(0)·0.2 → box x 0.15…0.35, y 0.15…0.35, "cat" logit 2 → 0.8808
    // 1: shifted by +0.1·0.2 in x (raw 1 → 1/10·0.2 = 0.02), same size → IoU with 0 ≈ 0.82 > 0.3, "cat" logit 1 →
    // 0.7311: suppressed
    // 2: anchor (0.75, 0.5), size exp(5/5)·0.1 = 0.2718 wide, exp(0)·0.4 high → x 0.6141…0.8859, y 0.3…0.7, "dog" logit
    // 0 → 0.5
    static let anchors: [DetectorMetadata.Anchor] = [
        .init(xCenter: 0.25, yCenter: 0.25, width: 0.2, height: 0.2),
        .init(xCenter: 0.25, yCenter: 0.25, width: 0.2, height: 0.2),
        .init(xCenter: 0.75, yCenter: 0.5, width: 0.1, height: 0.4),
    ]
    static let boxes: [Float] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 5]
    static let scores: [Float] = [2, -9, 1, -9, -9, 0]

    func detector(_ configure: (ObjectDetectorOptions) -> Void = { _ in }) throws -> ObjectDetector {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetBuffer = Data(
            try SyntheticModels.rawSSD(
                boxes: Self.boxes, scores: Self.scores, classes: 2,
                anchors: Self.anchors, labels: ["cat", "dog"]))
        configure(options)
        return try ObjectDetector(options: options)
    }

    @Test("decodes anchors, keeps the best of overlapping boxes, labels by axis labels")
    func decoding() throws {
        let image = MPImage(bitmap: try Bitmap(width: 200, height: 100, format: .rgb8, fill: (90, 90, 90)))
        let result = try detector().detect(image: image)
        #expect(result.detections.count == 2)
        let cat = result.detections[0], dog = result.detections[1]
        #expect(cat.categories.map(\.categoryName) == ["cat"] && cat.categories[0].index == 0)
        #expect(abs(cat.categories[0].score - 1 / (1 + exp(-2))) < 1e-6)
        // x 0.15…0.35 → 30 + (0.35 − 0.15 = 0.19999999 in float) · 200 = 39.99… → 39, truncated as MediaPipe does.
        #expect(cat.boundingBox == CGRect(x: 30, y: 15, width: 39, height: 19))
        #expect(dog.categories.map(\.categoryName) == ["dog"] && dog.categories[0].index == 1)
        #expect(abs(dog.categories[0].score - 0.5) < 1e-6)
        #expect(dog.boundingBox == CGRect(x: 122, y: 30, width: 54, height: 39))
    }

    @Test("threshold, maxResults, allow and deny lists apply before suppression")
    func options() throws {
        let image = MPImage(bitmap: try Bitmap(width: 200, height: 100, format: .rgb8, fill: (90, 90, 90)))
        #expect(try detector { $0.scoreThreshold = 0.6 }.detect(image: image).detections.count == 1)
        #expect(
            try detector { $0.maxResults = 1 }.detect(image: image).detections.map { $0.categories[0].categoryName }
                == ["cat"])
        // Only "dog" allowed: every box's best allowed class is "dog" — box 2 (0.5), then boxes 0 and 1
        // (sigmoid(−9) each); box 1 overlaps box 0 and is suppressed.
        let allowed = try detector { $0.categoryAllowlist = ["dog"] }.detect(image: image)
        #expect(allowed.detections.map { $0.categories[0].categoryName } == ["dog", "dog"])
        #expect(
            allowed.detections.map(\.boundingBox) == [
                CGRect(x: 122, y: 30, width: 54, height: 39), CGRect(x: 30, y: 15, width: 39, height: 19),
            ])
        #expect(abs(allowed.detections[1].categories[0].score - 1 / (1 + exp(9))) < 1e-7)
        let denied = try detector { $0.categoryDenylist = ["cat"] }.detect(image: image)
        #expect(denied.detections.map(\.boundingBox) == allowed.detections.map(\.boundingBox))
    }
}

@Suite("Display names by locale")
struct DisplayNameTests {
    @Test("display names come from the label file of exactly the requested locale", .enabled(if: TestAssets.shouldRun))
    func locales() throws {
        let model = Data(
            try SyntheticModels.rawSSD(
                boxes: SyntheticRawSSDTests.boxes, scores: SyntheticRawSSDTests.scores, classes: 2,
                anchors: SyntheticRawSSDTests.anchors, labels: ["cat", "dog"],
                displayNames: ("fr", ["chat", "chien"])))
        let image = MPImage(bitmap: try Bitmap(width: 200, height: 100, format: .rgb8, fill: (90, 90, 90)))
        func names(_ locale: String?) throws -> [String?] {
            let options = ObjectDetectorOptions()
            options.baseOptions.modelAssetBuffer = model
            if let locale { options.displayNamesLocale = locale }
            return try ObjectDetector(options: options).detect(image: image).detections.map {
                $0.categories[0].displayName
            }
        }
        #expect(try names("fr") == ["chat", "chien"])
        #expect(try names(nil) == [nil, nil])  // default "en": no English file
        #expect(try names("fr-CA") == [nil, nil])  // exact match only, no fallback
        #expect(try names("FR") == [nil, nil])  // case-sensitive
    }
}
