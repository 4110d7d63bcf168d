import Foundation
import Imaging
import VisionAnalytics
import VisionPipeline

/// `eval detect --report PAGE.html`: one self-contained page — COCO's twelve numbers, the
/// precision–recall curves (IoU .50, .75 and the mean over .50:.95, as an inline SVG), AP per
/// category, precision/recall/F1 at the threshold, the confusion matrix, and the worst pictures
/// (most missed objects, then most false detections) with found, wrong and missed boxes drawn.
enum EvalHTMLReport {
    /// Pictures shown in the worst-pictures grid.
    static let worstCount = 12

    static func write(
        to path: String, evaluation e: COCOEvaluation, counts c: DetectionCounts, dataset: EvalDataset,
        imagesDir: String?, model: String,
        detections: Int
    ) throws {
        let esc = HTMLReport.escape
        let name = { (id: Int) in dataset.categories[id] ?? "#\(id)" }
        var h = HTMLReport.head(
            title: "vision-tasks eval detect report", heading: "vision-tasks eval detect",
            subtitle:
                "\(model) · \(dataset.images.count) pictures · \(dataset.annotations.count) objects · \(detections) "
                + "detections"
        )
        h +=
            "<style>td.cell{text-align:right;min-width:34px;font-variant-numeric:tabular-nums}.legend "
            + "span{margin-right:14px}</style>\n"
        // The twelve numbers.
        h +=
            "<section class=\"panel\"><h2>COCO (pycocotools' figures)</h2><table><tr><th>metric</th><th>value</th></tr>"
        for (i, v) in e.summary.enumerated() {
            h +=
                "<tr><td>\(esc(EvalReport.cocoLine(i, v).split(separator: "=").dropLast().joined(separator: "=")))</td>"
                + "<td class=\"n\">\(String(format: "%.3f", v))</td></tr>"
        }
        h += "</table></section>\n"
        h +=
            "<section class=\"panel\"><h2>Precision–recall (all areas, 100 detections, mean over categories)</h2>"
            + prCurves(e) + "</section>\n"
        // AP per category.
        h +=
            "<section class=\"panel\"><h2>AP@[.50:.95] per "
            + "category</h2><table><tr><th>category</th><th>AP</th><th></th><th>P</th><th>R</th><th>F1</th>"
            + "<th>found / wrong / missed</th></tr>"
        var quiet = 0
        for id in e.categoryIds {
            let ap = e.averagePrecisionByCategory[id] ?? -1
            let k = c.byCategory[id] ?? DetectionCounts.Counts()
            if ap < 0 && k.truePositives + k.falsePositives + k.misses == 0 {
                quiet += 1  // no objects and no detections of it
                continue
            }
            h += "<tr><td>\(esc(name(id)))</td><td class=\"n\">\(ap < 0 ? "—" : String(format: "%.3f", ap))</td>"
            h += "<td><span class=\"bar\" style=\"width:\(Int(max(0, ap) * 240))px\"></span></td>"
            h += String(
                format: "<td class=\"n\">%.3f</td><td class=\"n\">%.3f</td><td class=\"n\">%.3f</td>", k.precision,
                k.recall, k.f1)
            h += "<td class=\"n\">\(k.truePositives) / \(k.falsePositives) / \(k.misses)</td></tr>"
        }
        if quiet > 0 {
            h += "<tr><td colspan=\"7\">\(quiet) more categories with no objects and no detections</td></tr>"
        }
        h += String(
            format: "</table><p>At score ≥ %.2f and IoU ≥ %.2f: precision %.3f, recall %.3f, F1 %.3f.</p></section>\n",
            c.scoreThreshold, c.iouThreshold,
            c.total.precision, c.total.recall, c.total.f1)
        h +=
            "<section class=\"panel\"><h2>Confusion (rows: ground truth, columns: detected)</h2>"
            + confusion(c, name: name) + "</section>\n"
        h += worst(c, dataset: dataset, imagesDir: imagesDir, name: name)
        h += "</main></body></html>\n"
        try HTMLReport.save(h, to: path)
    }

    /// The PR curves as an SVG: IoU .50, .75 and the mean of the ten thresholds' curves.
    static func prCurves(_ e: COCOEvaluation) -> String {
        let w = 560.0, hgt = 340.0, left = 48.0, bottom = 36.0, top = 12.0, right = 16.0
        let pw = w - left - right, ph = hgt - top - bottom
        func point(_ r: Double, _ p: Double) -> String {
            String(format: "%.1f,%.1f", left + r * pw, top + (1 - p) * ph)
        }
        let recall = COCOEvaluation.recallThresholds
        var mean: [Double] = []
        for r in recall.indices {
            let defined = e.precisionCurves.map { $0[r] }.filter { $0 >= 0 }
            mean.append(defined.count == e.precisionCurves.count ? defined.reduce(0, +) / Double(defined.count) : -1)
        }
        let t50 = COCOEvaluation.iouThresholds.firstIndex(of: 0.5) ?? 0,
            t75 = COCOEvaluation.iouThresholds.firstIndex(of: 0.75) ?? 5
        let curves: [(String, String, [Double])] = [
            ("IoU .50", "#2563eb", e.precisionCurves.indices.contains(t50) ? e.precisionCurves[t50] : []),
            ("IoU .75", "#ea580c", e.precisionCurves.indices.contains(t75) ? e.precisionCurves[t75] : []),
            ("IoU .50:.95", "#16a34a", mean),
        ]
        var svg = "<svg width=\"\(Int(w))\" height=\"\(Int(hgt))\" role=\"img\" aria-label=\"precision-recall curves\">"
        svg += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(pw)\" height=\"\(ph)\" fill=\"#fafbfc\" stroke=\"#c5cbd6\"/>"
        for k in 0...10 {
            let v = Double(k) / 10
            svg += String(
                format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eceef2\"/>", left + v * pw,
                top, left + v * pw, top + ph)
            svg += String(
                format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eceef2\"/>", left,
                top + v * ph, left + pw, top + v * ph)
            if k % 2 == 0 {
                svg += String(
                    format:
                        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" "
                        + "fill=\"#5b6475\">%.1f</text>",
                    left + v * pw, top + ph + 14, v)
                svg += String(
                    format:
                        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" fill=\"#5b6475\">%.1f</text>",
                    left - 6, top + (1 - v) * ph + 4, v
                )
            }
        }
        svg += String(
            format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">recall</text>", left + pw / 2,
            hgt - 4)
        svg += String(
            format:
                "<text x=\"12\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 12 "
                + "%.1f)\">precision</text>",
            top + ph / 2,
            top + ph / 2)
        for (label, color, values) in curves {
            let points = zip(recall, values).filter { $0.1 >= 0 }.map { point($0.0, $0.1) }
            if !points.isEmpty {
                svg +=
                    "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" "
                    + "points=\"\(points.joined(separator: " "))\"><title>\(label)</title></polyline>"
            }
        }
        svg += "</svg>"
        let legend = curves.map { "<span style=\"color:\($0.1)\">━ \($0.0)</span>" }.joined()
        return svg + "<div class=\"legend\">\(legend)</div>"
    }

    static func confusion(_ c: DetectionCounts, name: (Int) -> String) -> String {
        let labels = c.categoryIds.map(name) + ["background"]
        let peak = max(1, c.confusion.flatMap { $0 }.max() ?? 1)
        // Only classes that appear (as ground truth or as a detection).
        let shown = c.confusion.indices.filter { i in
            c.confusion[i].contains { $0 > 0 } || c.confusion.contains { $0[i] > 0 }
        }
        var h =
            "<div style=\"overflow-x:auto\"><table><tr><th></th>"
            + shown.map { "<th>\(HTMLReport.escape(labels[$0]))</th>" }.joined() + "</tr>"
        for r in shown {
            h += "<tr><th>\(HTMLReport.escape(labels[r]))</th>"
            for k in shown {
                let n = c.confusion[r][k]
                let alpha = n == 0 ? 0 : 0.12 + 0.75 * Double(n) / Double(peak)
                let hue = r == k && r < c.categoryIds.count ? "22,163,74" : "220,38,38"
                h +=
                    "<td class=\"cell\" "
                    + "style=\"background:rgba(\(hue),\(String(format: "%.2f", alpha)))\">"
                    + "\(n == 0 ? "" : String(n))</td>"
            }
            h += "</tr>"
        }
        return h + "</table></div>"
    }

    /// The pictures with the most misses (then false detections), boxes drawn: found green, wrong
    /// orange, missed red.
    static func worst(_ c: DetectionCounts, dataset: EvalDataset, imagesDir: String?, name: (Int) -> String) -> String {
        let ranked = c.byImage.filter { !$0.value.misses.isEmpty || !$0.value.falsePositives.isEmpty }
            .sorted { a, b in
                (a.value.misses.count, a.value.falsePositives.count, b.key) > (
                    b.value.misses.count, b.value.falsePositives.count, a.key
                )
            }
            .prefix(worstCount)
        var h =
            "<section class=\"panel\"><h2>Worst pictures</h2><p class=\"legend\"><span style=\"color:#3cb44b\">■ "
            + "found</span>"
        h +=
            "<span style=\"color:#f58230\">■ wrong (false detection)</span><span style=\"color:#e6194b\">■ "
            + "missed</span></p>"
        if ranked.isEmpty { return h + "<p>No missed objects and no false detections.</p></section>\n" }
        h += "</section>\n<div class=\"grid\">\n"
        for (image, outcome) in ranked {
            let file = dataset.images[image] ?? "#\(image)"
            var record = TaskRecord(fields: [], text: "")
            func mark(_ b: Box, _ label: String, _ color: Int) {
                record.marks.append(
                    .init(
                        x: Int(b.x.rounded()), y: Int(b.y.rounded()), width: Int(b.width.rounded()),
                        height: Int(b.height.rounded()), label: label, color: color
                    ))
            }
            for d in outcome.truePositives {
                mark(d.box, "\(name(d.categoryId)) \(Int((d.score * 100).rounded()))%", 1)
            }
            for d in outcome.falsePositives {
                mark(d.box, "wrong \(name(d.categoryId)) \(Int((d.score * 100).rounded()))%", 3)
            }
            for g in outcome.misses { mark(g.box, "missed \(name(g.categoryId))", 0) }
            h += "<div class=\"card\">"
            if let imagesDir,
                let picture = try? Picture.load(
                    URL(fileURLWithPath: imagesDir).appendingPathComponent(file).path, orientation: nil),
                let thumb = try? HTMLReport.thumbnail(picture.shown, record, scale: picture.drawScale)
            {
                h +=
                    "<div class=\"thumbs\"><img alt=\"\(HTMLReport.escape(file))\" "
                    + "src=\"data:image/jpeg;base64,\(thumb)\"></div>"
            }
            h += "<div class=\"body\"><div class=\"src\">\(HTMLReport.escape(file))</div><div class=\"detail\">"
            h +=
                "\(outcome.misses.count) missed, \(outcome.falsePositives.count) wrong, "
                + "\(outcome.truePositives.count) found</div>"
            let missed =
                outcome.misses.map { "missed \(name($0.categoryId))" }
                + outcome.falsePositives.map { "wrong \(name($0.categoryId))" }
            h += "<ul>" + missed.prefix(12).map { "<li>\(HTMLReport.escape($0))</li>" }.joined() + "</ul></div></div>\n"
        }
        return h + "</div>\n"
    }
}
