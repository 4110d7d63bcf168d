import Foundation
import Testing
import VisionAnalytics
import VisionTestSupport

/// COCOEvaluation against pycocotools 2.0.10 (Tests/Goldens/pycocotools_eval.json, made by
/// scripts/eval/coco_goldens.py on Tests/Fixtures/eval): every summary number, every category's AP
/// and every point of the PR curves to 1e-6; and small cases worked out by hand.
@Suite("COCO detection evaluation")
struct COCOEvaluationTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(
            contentsOf: TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/eval").appendingPathComponent(
                name))
    }

    @Test(
        """
        equal to pycocotools on MediaPipe's detections with crowd boxes, empty images, absent and unannotated \
        classes, duplicates
        """
    )
    func pycocotools() throws {
        let golden = try Goldens.dictionary("pycocotools_eval.json")
        let dataset = try COCODataset(json: try Self.fixture("coco_gt.json"))
        let detections = try dataset.results(json: try Self.fixture("coco_dt.json"))
        #expect(dataset.images.count == golden["images"] as? Int && detections.count == golden["detections"] as? Int)
        let e = COCOEvaluation(
            groundTruth: dataset.annotations, detections: detections, imageIds: Array(dataset.images.keys),
            categoryIds: Array(dataset.categories.keys))
        let stats = try #require(golden["stats"] as? [Double])
        #expect(stats.count == 12)
        for (i, (ours, theirs)) in zip(e.summary, stats).enumerated() {
            #expect(abs(ours - theirs) <= 1e-6, "\(COCOEvaluation.summaryNames[i]): \(ours) vs pycocotools \(theirs)")
        }
        // The fixture exercises what it claims: some AP is defined and not perfect, small and large boxes exist.
        #expect(stats[0] > 0.05 && stats[0] < 0.95 && stats[3] > -1 && stats[5] > -1)
        let perClass = try #require(golden["per_class_ap"] as? [String: Double])
        #expect(perClass.count == dataset.categories.count)
        for (key, theirs) in perClass {
            let id = try #require(Int(key))
            let ours = try #require(e.averagePrecisionByCategory[id])
            #expect(
                abs(ours - theirs) <= 1e-6,
                "category \(key) (\(dataset.categories[Int(key) ?? 0] ?? "?")): \(ours) vs \(theirs)")
        }
        #expect(perClass.values.contains(-1))  // the unannotated category
        let curves = try #require(golden["precision_curves"] as? [[Double]])
        #expect(curves.count == 10 && e.precisionCurves.count == 10)
        var worst = 0.0
        for (ours, theirs) in zip(e.precisionCurves, curves) {
            for (a, b) in zip(ours, theirs) { worst = max(worst, abs(a - b)) }
        }
        #expect(worst <= 1e-6)
    }

    @Test("by hand: a perfect detector scores 1, a detector of nothing 0, a crowd box is never missed")
    func byHand() {
        let gt = [
            GroundTruthBox(imageId: 1, categoryId: 1, box: Box(x: 10, y: 10, width: 50, height: 50)),
            GroundTruthBox(imageId: 1, categoryId: 1, box: Box(x: 100, y: 100, width: 200, height: 150)),
            GroundTruthBox(imageId: 2, categoryId: 1, box: Box(x: 0, y: 0, width: 20, height: 20), isCrowd: true),
        ]
        let perfect = gt.filter { !$0.isCrowd }.map {
            DetectedBox(imageId: $0.imageId, categoryId: 1, box: $0.box, score: 0.9)
        }
        // pycocotools on this case: [1, 1, 1, -1, 1 − 2e-16, 1 − 2e-16, 0.5, 1, 1, -1, 1, 1] (precision is tp / (tp +
        // fp + ε)).
        let e = COCOEvaluation(groundTruth: gt, detections: perfect)
        let expected: [Double] = [1, 1, 1, -1, 1, 1, 0.5, 1, 1, -1, 1, 1]
        for (ours, theirs) in zip(e.summary, expected) { #expect(abs(ours - theirs) <= 1e-12, "\(e.summary)") }
        let none = COCOEvaluation(groundTruth: gt, detections: [])
        #expect(none.summary[0] == 0 && none.summary[8] == 0 && none.summary[3] == -1)
        // Detections inside the crowd box are ignored, not false positives.
        let crowded =
            perfect + [DetectedBox(imageId: 2, categoryId: 1, box: Box(x: 2, y: 2, width: 10, height: 10), score: 0.95)]
        #expect(abs(COCOEvaluation(groundTruth: gt, detections: crowded).summary[0] - 1) <= 1e-12)
        // One false positive ranked first halves the precision at the first recall points.
        let fp =
            perfect + [
                DetectedBox(imageId: 1, categoryId: 1, box: Box(x: 400, y: 400, width: 30, height: 30), score: 0.99)
            ]
        let withFP = COCOEvaluation(groundTruth: gt, detections: fp)
        #expect(withFP.summary[0] < 1 && abs(withFP.precisionCurves[0][0] - 2.0 / 3.0) < 1e-9)
    }

    @Test("IoU as pycocotools computes it, crowd boxes over the detection's area")
    func iou() {
        let a = Box(x: 0, y: 0, width: 10, height: 10), b = Box(x: 5, y: 0, width: 10, height: 10)
        #expect(COCOEvaluation.iou(a, b, crowd: false) == 50.0 / 150.0)
        #expect(COCOEvaluation.iou(a, b, crowd: true) == 0.5)
        #expect(COCOEvaluation.iou(a, Box(x: 10, y: 0, width: 5, height: 5), crowd: false) == 0)
    }

    @Test("bad files are typed errors that say what is wrong")
    func badInput() throws {
        #expect(throws: AnalyticsError.self) { try COCODataset(json: Data("[]".utf8)) }
        let noBox = Data(
            #"{"images":[{"id":1}],"categories":[{"id":1,"name":"a"}],"annotations":[{"image_id":1,"category_id":1}]}"#
                .utf8)
        do {
            _ = try COCODataset(json: noBox)
            Issue.record("no error")
        } catch let e as AnalyticsError {
            #expect(e.message == "annotations[0] needs image_id, category_id and bbox [x, y, width, height].")
        }
        let dataset = try COCODataset(json: Data(#"{"images":[{"id":1}],"categories":[],"annotations":[]}"#.utf8))
        #expect(throws: AnalyticsError.self) {
            try dataset.results(json: Data(#"[{"image_id":7,"category_id":1,"bbox":[0,0,1,1],"score":1}]"#.utf8))
        }
    }
}

/// DetectionCounts worked out by hand: counts per category and the confusion matrix.
@Suite("Detection counts at a threshold")
struct DetectionCountsTests {
    @Test("a right cat, a dog called a cat, a box on nothing, a detection below the threshold")
    func byHand() {
        let cat = 1, dog = 2
        let gt = [
            GroundTruthBox(imageId: 1, categoryId: cat, box: Box(x: 0, y: 0, width: 10, height: 10)),
            GroundTruthBox(imageId: 1, categoryId: dog, box: Box(x: 50, y: 50, width: 20, height: 20)),
            GroundTruthBox(imageId: 2, categoryId: dog, box: Box(x: 0, y: 0, width: 20, height: 20)),
        ]
        let detections = [
            DetectedBox(imageId: 1, categoryId: cat, box: Box(x: 0, y: 0, width: 10, height: 11), score: 0.9),
            DetectedBox(imageId: 1, categoryId: cat, box: Box(x: 50, y: 50, width: 20, height: 20), score: 0.8),
            DetectedBox(imageId: 1, categoryId: cat, box: Box(x: 200, y: 200, width: 5, height: 5), score: 0.7),
            DetectedBox(imageId: 2, categoryId: dog, box: Box(x: 0, y: 0, width: 20, height: 20), score: 0.3),
        ]
        let c = DetectionCounts(groundTruth: gt, detections: detections, scoreThreshold: 0.5)
        #expect(
            c.byCategory[cat]
                == {
                    var k = DetectionCounts.Counts(); k.truePositives = 1; k.falsePositives = 2; return k
                }())
        #expect(
            c.byCategory[dog]
                == {
                    var k = DetectionCounts.Counts(); k.misses = 2; return k
                }())
        #expect(c.total.truePositives == 1 && c.total.falsePositives == 2 && c.total.misses == 2)
        // Rows: cat, dog, background (ground truth); columns: cat, dog, background (detected).
        #expect(c.confusion == [[1, 0, 0], [1, 0, 1], [1, 0, 0]])
        // Per image: which boxes were found, wrong or missed.
        #expect(
            c.byImage[1]?.truePositives == [detections[0]] && c.byImage[1]?.falsePositives.count == 2
                && c.byImage[1]?.misses == [gt[1]])
        #expect(
            c.byImage[2]?.truePositives == [] && c.byImage[2]?.falsePositives == [] && c.byImage[2]?.misses == [gt[2]])
    }
}
