import Foundation
import Imaging
import VisionAnalytics
import VisionPipeline

/// The ground truth `eval detect` reads: a COCO JSON file, a folder of YOLO label files (one
/// `<picture name>.txt` per picture: `class cx cy w h`, normalized, with a names file), or the
/// `--jsonl` records of another run (their detections scoring at least a threshold).
struct EvalDataset {
    /// Image id → file name (relative to the pictures' folder).
    var images: [Int: String]
    /// Category id → name.
    var categories: [Int: String]
    var annotations: [GroundTruthBox]

    /// One detection of a record.
    struct RecordDetection {
        var name: String
        var box: Box
        var score: Double
    }

    static func load(_ path: String, images: String?, names: String?, recordThreshold: Double) throws -> EvalDataset {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.usage("--annotations \(path): no such file or folder")
        }
        if isDirectory.boolValue { return try yolo(path, images: images, names: names) }
        if path.hasSuffix(".jsonl") { return fromRecords(try records(path), threshold: recordThreshold) }
        let coco = try COCODataset(json: try Data(contentsOf: URL(fileURLWithPath: path)))
        return EvalDataset(images: coco.images, categories: coco.categories, annotations: coco.annotations)
    }

    /// Records keyed by their picture's file name.
    static func records(_ path: String) throws -> [String: [RecordDetection]] {
        var out: [String: [RecordDetection]] = [:]
        for (n, record) in try JSONRecords.read(path) {
            guard let source = record["source"] as? String else { continue }  // header and summary lines
            var detections: [RecordDetection] = []
            for d in record["detections"] as? [[String: Any]] ?? [] {
                guard let box = JSONRecords.box(d["boundingBox"]),
                    let top = (d["categories"] as? [[String: Any]])?.first,
                    let score = (top["score"] as? NSNumber)?.doubleValue
                else { throw CLIError.usage("\(path):\(n): a detection without boundingBox or categories") }
                let name =
                    top["categoryName"] as? String ?? (top["index"] as? NSNumber).map { "#\($0.intValue)" } ?? "?"
                detections.append(RecordDetection(name: name, box: box, score: score))
            }
            out[key(source), default: []] += detections
        }
        return out
    }

    /// A picture's key: its file name.
    static func key(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    static func fromRecords(_ records: [String: [RecordDetection]], threshold: Double) -> EvalDataset {
        let names = Set(records.values.flatMap { $0.filter { $0.score >= threshold }.map(\.name) }).sorted()
        let ids = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 + 1) })
        var images: [Int: String] = [:], annotations: [GroundTruthBox] = []
        for (i, file) in records.keys.sorted().enumerated() {
            images[i + 1] = file
            for d in records[file] ?? [] where d.score >= threshold {
                if let c = ids[d.name] { annotations.append(GroundTruthBox(imageId: i + 1, categoryId: c, box: d.box)) }
            }
        }
        return EvalDataset(
            images: images, categories: Dictionary(uniqueKeysWithValues: ids.map { ($1, $0) }), annotations: annotations
        )
    }

    static func yolo(_ labels: String, images: String?, names: String?) throws -> EvalDataset {
        guard let images else {
            throw CLIError.usage("YOLO labels need --images DIR (the pictures give the boxes their size)")
        }
        guard let names else { throw CLIError.usage("YOLO labels need --names FILE (class names, one per line)") }
        let classNames = try String(contentsOfFile: names, encoding: .utf8).split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        .filter { !$0.isEmpty }
        let files = try FileManager.default.contentsOfDirectory(atPath: images).filter {
            ["jpg", "jpeg", "png"].contains(URL(fileURLWithPath: $0).pathExtension.lowercased())
        }.sorted()
        var dataset = EvalDataset(images: [:], categories: [:], annotations: [])
        for (c, name) in classNames.enumerated() { dataset.categories[c] = name }
        for (i, file) in files.enumerated() {
            let id = i + 1
            dataset.images[id] = file
            let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let labelPath = URL(fileURLWithPath: labels).appendingPathComponent(stem + ".txt").path
            // no file: no objects
            guard let text = try? String(contentsOfFile: labelPath, encoding: .utf8) else { continue }
            let picture = try ImageDecoder.decode(
                contentsOfFile: URL(fileURLWithPath: images).appendingPathComponent(file).path)
            let shown = picture.orientation.swapsDimensions
            let w = Double(shown ? picture.bitmap.height : picture.bitmap.width),
                h = Double(shown ? picture.bitmap.width : picture.bitmap.height)
            for (n, line) in text.split(separator: "\n").enumerated() {
                let f = line.split(separator: " ").compactMap { Double($0) }
                guard f.count >= 5, let c = Int(exactly: f[0]), dataset.categories[c] != nil else {
                    throw CLIError.usage("\(labelPath):\(n + 1): expected 'class cx cy w h' with a class of --names")
                }
                let box = Box(x: (f[1] - f[3] / 2) * w, y: (f[2] - f[4] / 2) * h, width: f[3] * w, height: f[4] * h)
                dataset.annotations.append(GroundTruthBox(imageId: id, categoryId: c, box: box))
            }
        }
        return dataset
    }
}
