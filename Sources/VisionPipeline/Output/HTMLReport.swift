import Foundation
import Imaging

/// `--report report.html`: one self-contained page (pictures embedded as data URIs, no scripts or
/// network) with thumbnails with their boxes drawn, counts per class, each input's results and
/// the run's timing. A person opens it in any browser.
package final class HTMLReport {
    package struct Entry {
        package var source: String
        package var detail: String
        package var thumbnails: [String] = []  // base64 JPEGs
        package var lines: [String] = []
        package var error: String?
        /// A video's counts per class (detections summed over frames, or tracks).
        package var counts: [String: Int] = [:]
    }

    package let path: String
    package let task: String
    package let model: String
    package private(set) var entries: [Entry] = []
    private var counts: [String: Int] = [:]
    /// Most thumbnails kept per video.
    package static let framesPerVideo = 6

    package init(path: String, task: String, model: String) {
        self.path = path
        self.task = task
        self.model = model
    }

    /// A thumbnail of `shown` with `record` drawn on it, as base64 JPEG.
    /// `scale`: `shown`'s pixels per pixel of the record's boxes.
    package static func thumbnail(_ shown: Bitmap, _ record: TaskRecord, scale boxScale: Double = 1) throws -> String {
        let (small, scale) = try Annotation.thumbnail(shown, maxSide: 360)
        let drawn = Annotation.draw(record, on: small, scale: scale * boxScale)
        return Data(try ImageEncoder.jpeg(drawn, quality: 80)).base64EncodedString()
    }

    package func add(_ entry: Entry, classes: [String]) {
        entries.append(entry)
        for c in classes { counts[c, default: 0] += 1 }
    }

    /// Adds to the last entry (a video's later frames).
    package func extendLast(thumbnail: String?, line: String?, classes: [String]) {
        guard !entries.isEmpty else { return }
        if let thumbnail { entries[entries.count - 1].thumbnails.append(thumbnail) }
        if let line { entries[entries.count - 1].lines.append(line) }
        for c in classes {
            counts[c, default: 0] += 1
            entries[entries.count - 1].counts[c, default: 0] += 1
        }
    }

    package func setLastDetail(_ detail: String) {
        guard !entries.isEmpty else { return }
        entries[entries.count - 1].detail = detail
    }

    package func setLastError(_ error: String) {
        guard !entries.isEmpty else { return }
        entries[entries.count - 1].error = error
    }

    package static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// The page's start up to `<main>`: the shared style and a header (texts are escaped here).
    package static func head(title: String, heading: String, subtitle: String) -> String {
        let e = escape
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,\
             initial-scale=1">
            <title>\(e(title))</title>
            <style>
            body{font:15px/1.45 system-ui,-apple-system,"Segoe\
             UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
            header{background:#1d2330;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}header\
             p{margin:4px 0 0;color:#c5cbd6}
            main{padding:20px 28px;max-width:1400px}
            section.panel{background:#fff;border-radius:8px;padding:14px 18px;margin-bottom:18px;box-shadow:0 1px 3px\
             rgba(0,0,0,.08)}
            h2{font-size:17px;margin:0 0 10px}table{border-collapse:collapse}td,th{padding:3px 14px 3px\
             0;text-align:left}
            th{color:#5b6475;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
            .bar{display:inline-block;height:10px;background:#3b82f6;border-radius:2px;vertical-align:middle}
            .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:16px}
            .card{background:#fff;border-radius:8px;overflow:hidden;box-shadow:0 1px 3px rgba(0,0,0,.08)}
            .card .thumbs{display:flex;flex-wrap:wrap;gap:2px;background:#111}.card\
             img{max-width:100%;display:block;flex:1 1 160px;object-fit:contain}
            .card.video{grid-column:1/-1}.card.video img{flex:1 1 30%;max-width:33%}
            .chips{margin-top:6px}.chip{display:inline-block;background:#eef2ff;color:#1e3a8a;border-radius:10px;\
            padding:1px 8px;margin:2px 4px 0 0;font-size:12px}
            .card .body{padding:10px 12px}.card .src{font-weight:600;word-break:break-all}.card\
             .detail{color:#5b6475;font-size:13px}
            .card ul{margin:6px 0 0;padding-left:18px;font-size:13px}.err{color:#b91c1c;font-size:13px}
            </style></head><body>
            <header><h1>\(e(heading))</h1><p>\(e(subtitle))</p></header><main>

            """
    }

    /// Writes a page, making its folder.
    package static func save(_ html: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(html.utf8)) else {
            throw PipelineError.failure("cannot write the report \(path)")
        }
    }

    /// Writes the page.
    package func write(summary: String, stages: StageTimes) throws {
        let e = Self.escape
        var h = Self.head(
            title: "vision-tasks \(task) report", heading: "vision-tasks \(task)",
            subtitle: "\(model) · \(entries.count) inputs · \(summary)")
        let maxCount = counts.values.max() ?? 1
        h += "<section class=\"panel\"><h2>Per class</h2><table><tr><th>class</th><th>count</th><th></th></tr>"
        for (name, n) in counts.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            h +=
                "<tr><td>\(e(name))</td><td class=\"n\">\(n)</td><td><span class=\"bar\" "
                + "style=\"width:\(max(2, n * 240 / max(1, maxCount)))px\"></span></td></tr>"
        }
        if counts.isEmpty { h += "<tr><td colspan=\"3\">nothing found</td></tr>" }
        h +=
            "</table></section>\n<section class=\"panel\"><h2>Timing</h2><table><tr><th>stage</th><th>total "
            + "s</th><th>ms per item</th></tr>"
        for r in stages.rows {
            h += String(
                format: "<tr><td>%@</td><td class=\"n\">%.2f</td><td class=\"n\">%.2f</td></tr>", r.stage, r.total,
                r.perItem)
        }
        h += "</table></section>\n<div class=\"grid\">\n"
        for entry in entries {
            h += entry.thumbnails.count > 1 ? "<div class=\"card video\">" : "<div class=\"card\">"
            if !entry.thumbnails.isEmpty {
                h +=
                    "<div class=\"thumbs\">"
                    + entry.thumbnails.map { "<img alt=\"\(e(entry.source))\" src=\"data:image/jpeg;base64,\($0)\">" }
                    .joined()
                    + "</div>"
            }
            h +=
                "<div class=\"body\"><div class=\"src\">\(e(entry.source))</div><div "
                + "class=\"detail\">\(e(entry.detail))</div>"
            if let err = entry.error { h += "<div class=\"err\">\(e(err))</div>" }
            if !entry.lines.isEmpty {
                h += "<ul>" + entry.lines.prefix(40).map { "<li>\(e($0))</li>" }.joined() + "</ul>"
            }
            if !entry.counts.isEmpty {
                h +=
                    "<div class=\"chips\">"
                    + entry.counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                    .map { "<span class=\"chip\">\(e($0.key)) × \($0.value)</span>" }.joined() + "</div>"
            }
            h += "</div></div>\n"
        }
        h += "</div></main></body></html>\n"
        try Self.save(h, to: path)
    }
}
