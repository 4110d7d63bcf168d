import Foundation
import MediaPipeTasksVision
import VisionAnalytics
import VisionPipeline

/// `vision-tasks eval detect`: a detector's accuracy on labelled pictures — COCO's AP and AR exactly
/// as pycocotools computes them, per-category AP, precision/recall/F1 at a score threshold and a
/// confusion matrix. Ground truth: a COCO JSON file, YOLO label files (with `--names`), or the
/// `--jsonl` records of another run (to compare two models). Predictions: the model run on the
/// pictures, or `--predictions` records of an earlier run.
/// `vision-tasks eval classify`: a classifier's top-1/top-5 accuracy and per-class precision and
/// recall, on a folder per class or a CSV of `file,label` lines.
/// `vision-tasks eval track`: a tracker's HOTA (DetA, AssA, LocA), MOTA, MOTP, ID switches,
/// fragmentations and IDF1, as TrackEval computes them, from MOTChallenge text or `track --jsonl` records.
enum EvalCommand {
    static let options = [
        TaskArguments.model,
        OptionSpec(.images, .text, "DIR", help: "the folder of pictures the annotations name"),
        OptionSpec(
            .annotations, .text, "PATH",
            help:
                "ground truth: COCO .json, a folder of YOLO .txt labels, or a .jsonl of another run's records; "
                + "classify: a CSV of file,label lines (default: a folder per class in --images)"
        ),
        OptionSpec(.names, .text, "FILE", help: "YOLO labels: the class names, one per line, in class-index order"),
        OptionSpec(
            .predictions, .text, "JSONL", help: "evaluate these records of an earlier run instead of running --model"),
        OptionSpec(.map, .text, "FILE", help: "'model name=dataset name' lines, for categories named differently"),
        OptionSpec(
            .threshold, .number(0...1), "F", default: "0.5",
            help: "score threshold of the precision/recall/F1 and confusion-matrix figures"),
        OptionSpec(
            .gtThreshold, .number(0...1), "F", default: "0.5",
            help: "ground truth from records: their detections scoring at least F"),
        OptionSpec(.gt, .text, "MOT.txt", help: "track: the ground truth, MOTChallenge text (frame,id,x,y,w,h,…)"),
        OptionSpec(
            .results, .text, "PATH",
            help: "track: the tracker's boxes, MOTChallenge text or the --jsonl records of vision-tasks track"),
        TaskArguments.threads,
        OptionSpec(.json, .flag, help: "one JSON document on standard output"),
        OptionSpec(
            .report, .text, "PAGE.html",
            help:
                "detect: also write a page with the PR curves, AP per category, the confusion matrix and the worst "
                + "pictures drawn"
        ),
    ]

    static let spec = CommandSpec(
        name: "eval",
        summary:
            "measure a detector (COCO AP/AR as pycocotools), a classifier or a tracker (HOTA, MOTA, IDF1 as "
            + "TrackEval) on labelled data",
        positionals: "detect|classify|track", positionalHelp: "what to evaluate", count: 1...1, options: options,
        notes:
            "Example: vision-tasks eval detect --model ssd.tflite --images val2017/ --annotations "
            + "instances_val2017.json\nModel labels map to dataset categories by name (case, spaces and "
            + "underscores ignored) unless --map says otherwise.",
        run: run)

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        if p.positionals[0] == "classify" { return try classify(p, console) }
        if p.positionals[0] == "track" { return try track(p, console) }
        guard p.positionals[0] == "detect" else {
            throw CLIError.usage("eval knows 'detect', 'classify' and 'track' (got '\(p.positionals[0])')")
        }
        guard let annotations = p.string(.annotations) else {
            throw CLIError.usage("eval detect needs --annotations PATH")
        }
        let imagesDir = p.string(.images)
        let dataset = try EvalDataset.load(
            annotations, images: imagesDir, names: p.string(.names),
            recordThreshold: try p.value(.gtThreshold, as: Double.self))
        let mapping = try NameMapping(file: p.string(.map), categories: dataset.categories)
        var detections: [DetectedBox] = []
        var unmapped: [String: Int] = [:]
        func add(_ image: Int, _ name: String, _ box: Box, _ score: Double) {
            guard let category = mapping.category(for: name) else {
                unmapped[name, default: 0] += 1
                return
            }
            detections.append(DetectedBox(imageId: image, categoryId: category, box: box, score: score))
        }
        if let predictions = p.string(.predictions) {
            let records = try EvalDataset.records(predictions)
            for (id, file) in dataset.images {
                for d in records[EvalDataset.key(file)] ?? [] { add(id, d.name, d.box, d.score) }
            }
        } else {
            let options = ObjectDetectorOptions()
            options.baseOptions.modelAssetPath = try ModelZoo.resolve(try TaskArguments.requiredModel(p))
            options.baseOptions.numThreads = try p.value(.threads, as: Int.self)
            let detector = try ObjectDetector(options: options)
            guard let imagesDir else {
                throw CLIError.usage("eval detect needs --images DIR to run the model (or --predictions)")
            }
            for (id, file) in dataset.images.sorted(by: { $0.key < $1.key }) {
                let path = URL(fileURLWithPath: imagesDir).appendingPathComponent(file).path
                let result = try detector.detect(image: MPImage(contentsOfFile: path))
                for d in result.detections {
                    guard let top = d.categories.first else { continue }
                    let b = d.boundingBox
                    add(
                        id, top.categoryName ?? "#\(top.index)",
                        Box(x: b.origin.x, y: b.origin.y, width: b.size.width, height: b.size.height),
                        Double(top.score))
                }
            }
        }
        let evaluation = COCOEvaluation(
            groundTruth: dataset.annotations, detections: detections, imageIds: Array(dataset.images.keys),
            categoryIds: Array(dataset.categories.keys))
        let counts = DetectionCounts(
            groundTruth: dataset.annotations, detections: detections, categoryIds: Array(dataset.categories.keys),
            scoreThreshold: try p.value(.threshold, as: Double.self))
        if let page = p.string(.report) {
            try EvalHTMLReport.write(
                to: page, evaluation: evaluation, counts: counts, dataset: dataset, imagesDir: imagesDir,
                model: p.string(.model) ?? p.string(.predictions) ?? "", detections: detections.count)
            console.err("wrote \(page)")
        }
        if p.flag(.json) {
            console.out(
                EvalReport.json(evaluation, counts, dataset: dataset, detections: detections.count, unmapped: unmapped))
        } else {
            console.out(
                EvalReport.text(evaluation, counts, dataset: dataset, detections: detections.count, unmapped: unmapped))
        }
    }

    static func classify(_ p: ParsedCommand, _ console: Console) throws {
        guard let imagesDir = p.string(.images) else { throw CLIError.usage("eval classify needs --images DIR") }
        var items: [(path: String, truth: String)] = []
        if let csv = p.string(.annotations) {
            let text = try String(contentsOfFile: csv, encoding: .utf8)
            for (n, line) in text.split(separator: "\n").enumerated()
            where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let parts = csvFields(String(line)).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else {
                    throw CLIError.usage("\(csv):\(n + 1): expected 'file,label' (quote fields that hold commas)")
                }
                if n == 0 && parts[0] == "file" { continue }  // a header
                items.append((URL(fileURLWithPath: imagesDir).appendingPathComponent(parts[0]).path, parts[1]))
            }
        } else {
            let folders = try FileManager.default.contentsOfDirectory(atPath: imagesDir).sorted()
            for folder in folders {
                let url = URL(fileURLWithPath: imagesDir).appendingPathComponent(folder)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
                else { continue }
                for file in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
                where ["jpg", "jpeg", "png"].contains(URL(fileURLWithPath: file).pathExtension.lowercased()) {
                    items.append((url.appendingPathComponent(file).path, folder))
                }
            }
        }
        guard !items.isEmpty else { throw CLIError.usage("eval classify found no labelled pictures in \(imagesDir)") }
        let classes = Array(Set(items.map(\.truth))).sorted()
        let mapping = try NameMapping(
            file: p.string(.map), categories: Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($0, $1) }))
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = try ModelZoo.resolve(try TaskArguments.requiredModel(p))
        options.baseOptions.numThreads = try p.value(.threads, as: Int.self)
        options.maxResults = 5
        let classifier = try ImageClassifier(options: options)
        var samples: [ClassificationEvaluation.Sample] = []
        for item in items {
            let result = try classifier.classify(image: MPImage(contentsOfFile: item.path))
            let ranked = (result.classificationResult.classifications.first?.categories ?? []).map { c -> String in
                let label = c.categoryName ?? c.displayName ?? "#\(c.index)"
                return mapping.category(for: label).map { classes[$0] } ?? label
            }
            samples.append(.init(truth: item.truth, ranked: ranked))
        }
        let e = ClassificationEvaluation(samples, k: 5)
        if p.flag(.json) {
            let perClass = classes.map { c -> [String: Any] in
                let f = e.byClass[c] ?? ClassificationEvaluation.ClassFigures()
                return ["class": c, "support": f.support, "precision": f.precision, "recall": f.recall, "f1": f.f1]
            }
            let object: [String: Any] = [
                "pictures": e.pictures, "top1": e.top1, "top5": e.topK, "balancedAccuracy": e.meanRecall,
                "classes": perClass,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            console.out(String(decoding: data, as: UTF8.self))
            return
        }
        console.out(
            String(
                format: "%d pictures, %d classes: top-1 %.3f, top-5 %.3f, balanced accuracy %.3f", e.pictures,
                classes.count, e.top1, e.topK, e.meanRecall))
        for c in classes {
            let f = e.byClass[c] ?? ClassificationEvaluation.ClassFigures()
            console.out(
                String(
                    format: "  %@ %4d pictures  P %.3f R %.3f F1 %.3f",
                    c.padding(toLength: 24, withPad: " ", startingAt: 0), f.support, f.precision, f.recall,
                    f.f1))
        }
    }

    /// The fields of a CSV line: comma-separated, a field in double quotes may hold commas and "" for a quote.
    static func csvFields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var chars = Array(line.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))).makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" {
                    if let next = chars.next() {
                        if next == "\"" {
                            field.append("\"")
                        } else if next == "," {
                            quoted = false; fields.append(field); field = ""
                        } else {
                            quoted = false; field.append(next)
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "," {
                fields.append(field)
                field = ""
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else {
                field.append(c)
            }
        }
        fields.append(field)
        return fields
    }

    static func track(_ p: ParsedCommand, _ console: Console) throws {
        guard let gtPath = p.string(.gt), let resultsPath = p.string(.results) else {
            throw CLIError.usage("eval track needs --gt MOT.txt and --results PATH")
        }
        func text(_ path: String) throws -> String {
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw CLIError.usage("cannot read \(path)")
            }
        }
        let gt = try MOTFile.read(try text(gtPath), groundTruth: true)
        let tracks: [TrackedBox]
        if resultsPath.hasSuffix(".jsonl") {
            let records = try TrackFrames.records(resultsPath)
            guard records.videos.count <= 1 else {
                throw CLIError.usage(
                    "\(resultsPath) holds \(records.videos.count) videos' records; evaluate one video at a time (one "
                        + "--gt per video)"
                )
            }
            tracks = records.trackedBoxes
        } else {
            tracks = try MOTFile.read(try text(resultsPath))
        }
        let e = TrackingEvaluation(groundTruth: gt, tracks: tracks)
        let numbers: [(String, Double)] = [
            ("HOTA", e.hota), ("DetA", e.detA), ("AssA", e.assA), ("LocA", e.locA), ("DetRe", e.detRe),
            ("DetPr", e.detPr), ("AssRe", e.assRe),
            ("AssPr", e.assPr), ("MOTA", e.mota), ("MOTP", e.motp), ("IDF1", e.idf1), ("IDP", e.idPrecision),
            ("IDR", e.idRecall),
        ]
        let counts: [(String, Int)] = [
            ("IDSW", e.idSwitches), ("Frag", e.fragmentations), ("TP", e.truePositives), ("FP", e.falsePositives),
            ("FN", e.misses),
            ("MT", e.mostlyTracked), ("PT", e.partlyTracked), ("ML", e.mostlyLost),
        ]
        if p.flag(.json) {
            var object: [String: Any] = [:]
            for (k, v) in numbers { object[k] = v }
            for (k, v) in counts { object[k] = v }
            object["gtBoxes"] = gt.count
            object["trackerBoxes"] = tracks.count
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            console.out(String(decoding: data, as: UTF8.self))
            return
        }
        console.out("\(gt.count) ground-truth boxes, \(tracks.count) tracker boxes")
        console.out(numbers.map { "\($0.0) \(String(format: "%.4f", $0.1))" }.joined(separator: "  "))
        console.out(counts.map { "\($0.0) \($0.1)" }.joined(separator: "  "))
    }
}
