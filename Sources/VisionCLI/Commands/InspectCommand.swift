import Foundation
import MLKit
import MediaPipeTasksVision
import TFLiteModel
import VisionCore
import VisionPipeline

/// `vision-tasks inspect`: what a model holds — tensors, ops, metadata, labels — without running it.
enum InspectCommand {
    static let spec = CommandSpec(
        name: "inspect", summary: "show a model's tensors, ops, metadata and labels, and check it against each task",
        positionals: "MODEL", positionalHelp: "a .tflite file, or a fetched model's name", count: 1...1,
        options: [], run: run)

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        let path = try ModelZoo.resolve(p.positionals[0])
        let resources = try ModelResources(path: path)
        let file = resources.file
        console.out("model        \(path) (\(file.data.count) bytes, schema v\(file.version))")
        let sg = file.subgraphs[0]
        for (kind, tensors) in [("input ", sg.inputTensors), ("output", sg.outputTensors)] {
            for t in tensors {
                var q = ""
                if let p = t.quantization, p.isPerTensor {
                    q = " scale \(p.scales[0]) zero point \(p.zeroPoints.first ?? 0)"
                }
                console.out("\(kind)       \(t.name) \(t.shape) \(t.type)\(q)")
            }
        }
        console.out("ops          \(Set(file.operatorNames()).sorted().joined(separator: ", "))")
        if let pp = try? file.detectionPostProcessOptions() {
            console.out(
                "post-process max_detections \(pp.maxDetections), num_classes \(pp.numClasses), iou "
                    + "\(pp.nmsIouThreshold), score \(pp.nmsScoreThreshold)"
            )
        }
        // The detector's own rules: Ultralytics' metadata (malformed: said, and the detector refuses the
        // model too), then whether a YOLO layout applies to the output.
        var ultralytics: UltralyticsMetadata?
        do { ultralytics = try DetectionHead.ultralyticsMetadata(file) } catch let e as VisionCoreError {
            console.out("ultralytics  " + e.message)
        }
        if let u = ultralytics {
            let names = (u.labels ?? []).prefix(6).joined(separator: ", ") + (u.names.count > 6 ? ", …" : "")
            let size = u.inputSize.map { " \($0.width)×\($0.height)" } ?? ""
            console.out(
                "ultralytics  \(u.version ?? "-") \(u.task ?? "-")\(size), \(u.names.count) classes "
                    + "(\(names))\(u.endToEnd ? ", end to end" : "") — metadata.json"
            )
        }
        if YOLOHeadLayout.applies(to: file, metadata: ultralytics, override: nil) {
            let (layout, reason) = try YOLOHeadLayout.decide(file, metadata: ultralytics)
            console.out("yolo         " + layout.summary)
            console.out("  decoder    chosen because \(reason)")
            if let input = sg.inputTensors.first.flatMap(YOLOHeadLayout.inputSize) {
                let units: String
                switch YOLOPostprocessor.boxUnits(
                    forced: nil, ultralytics: ultralytics != nil, layout: layout, channelsFirst: input.channelsFirst)
                {
                case nil: units = "read from the values (normalized when none exceeds 2)"
                case .pixels: units = "input pixels (Ultralytics' litert-torch end-to-end export)"
                case .normalized: units = "normalized (Ultralytics' export)"
                }
                console.out(
                    "  input      letterboxed to \(input.width)×\(input.height) on grey 114 (Ultralytics' rounding, "
                        + "OpenCV's resize), "
                        + (input.channelsFirst ? "NCHW" : "NHWC") + "; boxes " + units)
            }
        }
        defer { checks(path, file, console) }
        guard let md = resources.metadata else {
            console.out("metadata     none")
            return
        }
        console.out("metadata     \(md.name ?? "-") (min parser \(md.minParserVersion ?? "-"))")
        for t in (md.subgraphs.first?.inputTensors ?? []) + (md.subgraphs.first?.outputTensors ?? []) {
            var parts: [String] = []
            if let n = t.normalization { parts.append("normalization mean \(n.mean) std \(n.std)") }
            if let s = t.scoreThreshold { parts.append("score threshold \(s)") }
            if t.scoreCalibration != nil { parts.append("score calibration") }
            for f in t.associatedFiles {
                let count =
                    (try? LabelMap.parseLines(resources.associatedFile(f.name)).count).map { " \($0) lines" } ?? ""
                parts.append("file \(f.name)\(f.locale.map { " [\($0)]" } ?? "")\(count)")
            }
            console.out("  tensor     \(t.name ?? "-"): " + (parts.isEmpty ? "-" : parts.joined(separator: "; ")))
        }
        console.out("files        \(resources.archive?.names.joined(separator: ", ") ?? "none")")
    }

    /// Creates each task on the model — the same checks the APIs apply — and prints, for each
    /// refusal, the error and the `vision-tasks metadata` command line that repairs the model.
    static func checks(_ path: String, _ file: ModelFile, _ console: Console) {
        console.out("checks")
        let postProcessed = ((try? file.detectionPostProcessOptions()) ?? nil) != nil
        let floatInput = file.subgraphs.first?.inputTensors.first?.type == .float32
        let outputs = file.subgraphs.first?.outputTensors.count ?? 0
        var base = ((path as NSString).deletingPathExtension as NSString).lastPathComponent
        if base.hasSuffix("_no_metadata") { base.removeLast("_no_metadata".count) }
        let repaired = base + "_with_metadata.tflite"
        let normalization = floatInput ? " --mean 127.5 --std 127.5" : ""
        func report(_ task: String, _ error: Error?, fix: (VisionCoreError.Condition?) -> String?) {
            guard let error else {
                console.out("  ✓ \(task)")
                return
            }
            console.out("  ✗ \(task): " + ItemFailure(error).line())
            if let hint = fix(VisionCoreError.condition(of: error)) { console.out("      fix: \(hint)") }
        }
        let detectorOptions = ObjectDetectorOptions()
        detectorOptions.baseOptions.modelAssetPath = path
        let detector = Result { try ObjectDetector(options: detectorOptions) }
        let yolo = (try? detector.get())?.isYOLO == true
        let yoloUse = "this is a YOLO detector: use detect, or track --localizer"
        report("MediaPipe ObjectDetector" + (yolo ? " (YOLO decoder)" : ""), detector.failure) { condition in
            if condition == .yoloLayoutUnknown {
                return
                    "if the output is a YOLO head the rules cannot tell, name it: detect --head "
                    + "yolo|yolo-transposed|yolo-e2e"
            }
            if postProcessed {
                return "vision-tasks metadata --model \(path) --labels LABELS.txt\(normalization) --output \(repaired)"
                    + "   (LABELS.txt: one name per class id; ours for COCO: "
                    + "ssd_mobilenet_v2_fpnlite_320_coco_labels.txt)"
            }
            if outputs == 2 {
                return
                    "vision-tasks metadata --model \(path) --anchor-strides 8,16,… (or --blazeface-short-range) "
                    + "[--labels LABELS.txt]\(normalization) --output \(repaired)"
            }
            return outputs == 1 ? "this is a classifier: use classify or label" : nil
        }
        let classifierOptions = ImageClassifierOptions()
        classifierOptions.baseOptions.modelAssetPath = path
        report("MediaPipe ImageClassifier", Result { try ImageClassifier(options: classifierOptions) }.failure) {
            condition in
            if condition == .normalizationMissing {
                return
                    "vision-tasks metadata --model \(path) --mean 127.5 --std 127.5 --output \(repaired)   (the "
                    + "mean/std the model was trained with)"
            }
            if yolo { return yoloUse }
            return outputs > 1 ? "this is a detector: use detect" : nil
        }
        let labeler = ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: LocalModel(path: path)))
        report("ML Kit ImageLabeler (and ObjectDetector classification)", labeler.modelError) { message in
            if yolo { return yoloUse }
            if outputs != 1 {
                return
                    "ML Kit's custom models are classifiers; for detection use 'detect' (MediaPipe) or 'track' (ML "
                    + "Kit's own localizer)"
            }
            return "vision-tasks metadata --model \(path) --labels LABELS.txt\(normalization) --output \(repaired)"
        }
        if postProcessed || outputs == 2 || yolo {
            let localizer = CustomObjectDetectorOptions(localModel: LocalModel(path: ""))
            localizer.localizerModel = LocalModel(path: path)
            localizer.shouldEnableClassification = false
            report(
                "ML Kit ObjectDetector localizer (track --localizer)",
                ObjectDetector.objectDetector(options: localizer).modelError
            ) { _ in
                "vision-tasks metadata --model \(path) --labels LABELS.txt\(normalization) --output \(repaired)"
            }
        }
    }
}

private extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
