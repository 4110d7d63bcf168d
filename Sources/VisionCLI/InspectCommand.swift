import Foundation
import TFLiteModel
import VisionCore

/// `vision-tasks inspect`: what a model holds — tensors, ops, metadata, labels — without running it.
enum InspectCommand {
    static func run(_ raw: [String]) throws {
        let args = try Arguments(raw, booleanFlags: [])
        try args.rejectUnknown()
        guard let path = args.positionals.first else { throw CLIError.usage("inspect needs MODEL.tflite") }
        let resources = try TasksErrorBridge.run { try ModelResources(path: path) }
        let file = resources.file
        print("model        \(path) (\(file.bytes.count) bytes, schema v\(file.version))")
        let sg = file.subgraphs[0]
        for (kind, tensors) in [("input ", sg.inputTensors), ("output", sg.outputTensors)] {
            for t in tensors {
                var q = ""
                if let p = t.quantization, p.isPerTensor { q = " scale \(p.scales[0]) zero point \(p.zeroPoints.first ?? 0)" }
                print("\(kind)       \(t.name) \(t.shape) \(t.type)\(q)")
            }
        }
        print("ops          \(Set(file.operatorNames()).sorted().joined(separator: ", "))")
        if let pp = try? file.detectionPostProcessOptions() {
            print("post-process max_detections \(pp.maxDetections), num_classes \(pp.numClasses), iou \(pp.nmsIouThreshold), score \(pp.nmsScoreThreshold)")
        }
        guard let md = resources.metadata else {
            print("metadata     none (MediaPipe's ObjectDetector refuses models without metadata; the ImageClassifier accepts them)")
            return
        }
        print("metadata     \(md.name ?? "-") (min parser \(md.minParserVersion ?? "-"))")
        for t in (md.subgraphs.first?.inputTensors ?? []) + (md.subgraphs.first?.outputTensors ?? []) {
            var parts: [String] = []
            if let n = t.normalization { parts.append("normalization mean \(n.mean) std \(n.std)") }
            if let s = t.scoreThreshold { parts.append("score threshold \(s)") }
            if t.scoreCalibration != nil { parts.append("score calibration") }
            for f in t.associatedFiles {
                let count = (try? LabelMap.parseLines(resources.associatedFile(f.name)).count).map { " \($0) lines" } ?? ""
                parts.append("file \(f.name)\(f.locale.map { " [\($0)]" } ?? "")\(count)")
            }
            print("  tensor     \(t.name ?? "-"): " + (parts.isEmpty ? "-" : parts.joined(separator: "; ")))
        }
        print("files        \(resources.archive?.names.joined(separator: ", ") ?? "none")")
    }
}
