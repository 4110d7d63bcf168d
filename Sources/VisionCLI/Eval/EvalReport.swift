import Foundation
import VisionAnalytics
import VisionPipeline

/// `eval detect`'s output: pycocotools' twelve summary lines (same wording and rounding), AP per
/// category, the counts at the score threshold and the confusion matrix; or all of it as JSON.
enum EvalReport {
    /// pycocotools' line for summary entry `i`.
    static func cocoLine(_ i: Int, _ value: Double) -> String {
        let ap = i < 6
        let iou = i == 1 ? "0.50" : i == 2 ? "0.75" : "0.50:0.95"
        let area = [3: "small", 4: "medium", 5: "large", 9: "small", 10: "medium", 11: "large"][i] ?? "all"
        let maxDets = i == 6 ? 1 : i == 7 ? 10 : 100
        let title = (ap ? "Average Precision" : "Average Recall").padding(toLength: 18, withPad: " ", startingAt: 0)
        let iouField = iou.padding(toLength: 9, withPad: " ", startingAt: 0)
        let areaField = String(repeating: " ", count: max(0, 6 - area.count)) + area
        let dets = String(format: "%3d", maxDets)
        return
            " \(title) \(ap ? "(AP)" : "(AR)") @[ IoU=\(iouField) | area=\(areaField) | maxDets=\(dets) ] = "
            + "\(String(format: "%0.3f", value))"
    }

    static func text(
        _ e: COCOEvaluation, _ c: DetectionCounts, dataset: EvalDataset, detections: Int, unmapped: [String: Int]
    ) -> String {
        var lines = [
            "\(dataset.images.count) pictures, \(dataset.annotations.count) objects, \(dataset.categories.count) "
                + "categories, \(detections) detections"
        ]
        if !unmapped.isEmpty {
            let top = unmapped.sorted { $0.value > $1.value }.prefix(8).map { "\($0.key) (\($0.value))" }.joined(
                separator: ", ")
            lines.append("left out (no dataset category; --map): \(top)")
        }
        lines += e.summary.enumerated().map { cocoLine($0.offset, $0.element) }
        lines.append("")
        lines.append("AP@[.50:.95] per category (−1: no objects of it):")
        for id in e.categoryIds {
            lines.append(
                "  \(name(id, dataset).padding(toLength: 24, withPad: " ", startingAt: 0)) "
                    + "\(String(format: "%.3f", e.averagePrecisionByCategory[id] ?? -1))"
            )
        }
        lines.append("")
        lines.append(
            String(
                format:
                    "At score ≥ %.2f, IoU ≥ %.2f: precision %.3f, recall %.3f, F1 %.3f (%d true positives, %d false "
                    + "positives, %d missed)",
                c.scoreThreshold, c.iouThreshold, c.total.precision, c.total.recall, c.total.f1, c.total.truePositives,
                c.total.falsePositives, c.total.misses))
        for id in c.categoryIds {
            guard let k = c.byCategory[id], k.truePositives + k.falsePositives + k.misses > 0 else { continue }
            lines.append(
                String(
                    format: "  %@ P %.3f R %.3f F1 %.3f (%d/%d/%d)",
                    name(id, dataset).padding(toLength: 24, withPad: " ", startingAt: 0),
                    k.precision, k.recall, k.f1, k.truePositives, k.falsePositives, k.misses))
        }
        lines.append("")
        lines.append("Confusion (rows: ground truth, columns: detected; class-agnostic matching; nonzero cells):")
        let labels = c.categoryIds.map { name($0, dataset) } + ["background"]
        for (r, row) in c.confusion.enumerated() {
            let cells = row.enumerated().filter { $0.element > 0 }.map { "\(labels[$0.offset]) \($0.element)" }
            if !cells.isEmpty { lines.append("  \(labels[r]) → " + cells.joined(separator: ", ")) }
        }
        return lines.joined(separator: "\n")
    }

    static func json(
        _ e: COCOEvaluation, _ c: DetectionCounts, dataset: EvalDataset, detections: Int, unmapped: [String: Int]
    ) -> String {
        var summary: [String: Double] = [:]
        for (i, key) in COCOEvaluation.summaryNames.enumerated() { summary[key] = e.summary[i] }
        let perCategory = e.categoryIds.map { id -> [String: Any] in
            let k = c.byCategory[id] ?? DetectionCounts.Counts()
            return [
                "id": id, "name": name(id, dataset), "ap": e.averagePrecisionByCategory[id] ?? -1,
                "precision": k.precision, "recall": k.recall, "f1": k.f1,
                "truePositives": k.truePositives, "falsePositives": k.falsePositives, "misses": k.misses,
            ]
        }
        let object: [String: Any] = [
            "pictures": dataset.images.count, "objects": dataset.annotations.count, "detections": detections,
            "coco": summary,
            "cocoStats": e.summary, "categories": perCategory, "unmapped": unmapped,
            "threshold": [
                "score": c.scoreThreshold, "iou": c.iouThreshold, "precision": c.total.precision,
                "recall": c.total.recall, "f1": c.total.f1,
            ],
            "confusion": ["labels": c.categoryIds.map { name($0, dataset) } + ["background"], "counts": c.confusion],
            "precisionCurves": e.precisionCurves,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func name(_ id: Int, _ dataset: EvalDataset) -> String { dataset.categories[id] ?? "#\(id)" }
}
