import Foundation
import Testing
import VisionAnalytics
import VisionTestSupport

/// TrackingEvaluation against TrackEval 1.3.0 (HOTA, CLEAR, Identity) and py-motmetrics 1.4.0 (MOTA,
/// IDF1) on a seeded sequence with ID swaps, a lost-and-renamed object, misses, false positives, a
/// late start and a track kept too long (Tests/Goldens/tracking_eval.json, made by
/// scripts/eval/tracking_goldens.py): every number to 1e-6.
@Suite("Tracking evaluation")
struct TrackingEvaluationTests {
    static func load(_ name: String, groundTruth: Bool) throws -> [TrackedBox] {
        let url = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/eval").appendingPathComponent(name)
        return try MOTFile.read(try String(contentsOf: url, encoding: .utf8), groundTruth: groundTruth)
    }

    @Test("HOTA, DetA, AssA, LocA, MOTA, MOTP, IDSW, Frag, MT/PT/ML, IDF1 equal TrackEval's and py-motmetrics'")
    func references() throws {
        let golden = try Goldens.dictionary("tracking_eval.json")
        let gt = try Self.load("mot_gt.txt", groundTruth: true),
            tracks = try Self.load("mot_tracks.txt", groundTruth: false)
        #expect(gt.count == golden["gt_boxes"] as? Int && tracks.count == golden["tracker_boxes"] as? Int)
        let e = TrackingEvaluation(groundTruth: gt, tracks: tracks)
        let hota = try #require(golden["hota"] as? [String: Double])
        let ours: [String: Double] = [
            "HOTA": e.hota, "DetA": e.detA, "AssA": e.assA, "LocA": e.locA, "DetRe": e.detRe, "DetPr": e.detPr,
            "AssRe": e.assRe, "AssPr": e.assPr,
        ]
        for (key, value) in hota {
            #expect(abs((ours[key] ?? -1) - value) <= 1e-6, "\(key): \(ours[key] ?? -1) vs TrackEval \(value)")
        }
        let byAlpha = try #require(golden["hota_by_alpha"] as? [Double])
        for (a, b) in zip(e.hotaByThreshold, byAlpha) { #expect(abs(a - b) <= 1e-6) }
        let clear = try #require(golden["clear"] as? [String: Double])
        let oursClear: [String: Double] = [
            "MOTA": e.mota, "MOTP": e.motp, "CLR_TP": Double(e.truePositives), "CLR_FN": Double(e.misses),
            "CLR_FP": Double(e.falsePositives),
            "IDSW": Double(e.idSwitches), "Frag": Double(e.fragmentations), "MT": Double(e.mostlyTracked),
            "PT": Double(e.partlyTracked),
            "ML": Double(e.mostlyLost),
        ]
        for (key, value) in clear {
            #expect(
                abs((oursClear[key] ?? -1) - value) <= 1e-6, "\(key): \(oursClear[key] ?? -1) vs TrackEval \(value)")
        }
        let identity = try #require(golden["identity"] as? [String: Double])
        let oursIdentity: [String: Double] = [
            "IDF1": e.idf1, "IDP": e.idPrecision, "IDR": e.idRecall, "IDTP": Double(e.idTruePositives),
            "IDFP": Double(e.idFalsePositives),
            "IDFN": Double(e.idFalseNegatives),
        ]
        for (key, value) in identity {
            #expect(
                abs((oursIdentity[key] ?? -1) - value) <= 1e-6,
                "\(key): \(oursIdentity[key] ?? -1) vs TrackEval \(value)")
        }
        let motmetrics = try #require(golden["py_motmetrics"] as? [String: Double])
        #expect(abs(e.mota - (motmetrics["mota"] ?? -1)) <= 1e-6 && abs(e.idf1 - (motmetrics["idf1"] ?? -1)) <= 1e-6)
        #expect(Double(e.idSwitches) == motmetrics["num_switches"])
        // The fixture exercises what it claims.
        #expect(
            e.idSwitches > 0 && e.fragmentations > 0 && e.falsePositives > 0 && e.misses > 0 && e.hota > 0.3
                && e.hota < 0.9)
    }

    @Test("by hand: a perfect tracker scores 1; no tracks score 0; a bad line is a typed error")
    func byHand() throws {
        let gt = (1...10).flatMap { f in
            [
                TrackedBox(frame: f, id: 1, box: Box(x: Double(f), y: 0, width: 20, height: 20)),
                TrackedBox(frame: f, id: 2, box: Box(x: 100, y: Double(f), width: 30, height: 10)),
            ]
        }
        let perfect = TrackingEvaluation(
            groundTruth: gt, tracks: gt.map { TrackedBox(frame: $0.frame, id: $0.id + 10, box: $0.box) })
        #expect(
            perfect.hota == 1 && perfect.mota == 1 && perfect.idf1 == 1 && perfect.idSwitches == 0
                && perfect.mostlyTracked == 2)
        let none = TrackingEvaluation(groundTruth: gt, tracks: [])
        #expect(none.hota == 0 && none.mota == 0 && none.misses == 20 && none.mostlyLost == 2 && none.idf1 == 0)
        #expect(throws: AnalyticsError.self) { try MOTFile.read("1,2,3\n") }
        #expect(try MOTFile.read("1,1,0,0,10,10,0,1,1\n2,1,0,0,10,10,1,1,1\n", groundTruth: true).count == 1)
    }
}
