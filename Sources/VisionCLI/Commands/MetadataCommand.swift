import Foundation
import TFLiteModel
import VisionCore
import VisionPipeline

/// `vision-tasks metadata`: writes MediaPipe-compatible metadata into a model — for raw SSD
/// detectors, the `DETECTOR_METADATA` (anchors and decoding options) MediaPipe's ObjectDetector
/// needs; for classifiers (one output), the labels ML Kit and MediaPipe read, a score threshold;
/// for YOLO detectors, a label file and the head described; for both SSD kinds and classifiers,
/// optionally input normalization. The model's weights are kept byte for byte.
enum MetadataCommand {
    static let spec = CommandSpec(
        name: "metadata",
        summary: "write MediaPipe/ML Kit metadata (labels, normalization, detector outputs, anchors) into a model",
        options: [
            OptionSpec(.model, .text, "IN.tflite", help: "the model to complete"),
            OptionSpec(.output, .text, "OUT.tflite", help: "where to write the completed model"),
            OptionSpec(.labels, .text, "FILE", help: "label file, one label per line (the model's class order)"),
            OptionSpec(.mean, .number(-1e6...1e6), "M", help: "input normalization mean (float models)"),
            OptionSpec(.std, .number(-1e6...1e6), "S", help: "input normalization std (float models)"),
            OptionSpec(.scoreThreshold, .number(0...1), "T", help: "classifier: the model's score threshold"),
            OptionSpec(.blazefaceShortRange, .flag, help: "raw SSD: BlazeFace short-range anchors"),
            OptionSpec(.anchorStrides, .list, "S,S,…", help: "raw SSD: anchor strides per layer"),
            OptionSpec(.anchorAspectRatios, .list, "R,R,…", help: "raw SSD: anchor aspect ratios (default 1)"),
            OptionSpec(.anchorMinScale, .number(0...1e6), "F", help: "raw SSD: smallest anchor scale (default 0.2)"),
            OptionSpec(.anchorMaxScale, .number(0...1e6), "F", help: "raw SSD: largest anchor scale (default 0.95)"),
            OptionSpec(
                .anchorInputWidth, .integer(1...65536), "W",
                help: "raw SSD: anchor input width (default: the model's)"),
            OptionSpec(
                .anchorInputHeight, .integer(1...65536), "H",
                help: "raw SSD: anchor input height (default: the model's)"),
            OptionSpec(.anchorFixedSize, .flag, help: "raw SSD: fixed-size anchors"),
            OptionSpec(
                .numClasses, .integer(1...100_000), "N", help: "raw SSD: classes (default: from the scores output)"),
            OptionSpec(
                .numCoords, .integer(4...100_000), "N", help: "raw SSD: values per box (default: from the boxes output)"
            ),
            OptionSpec(.keypoints, .integer(0...10_000), "K", help: "raw SSD: keypoints per box"),
            OptionSpec(
                .keypointOffset, .integer(4...100_000), "N", help: "raw SSD: where keypoints start in a box (default 4)"
            ),
            OptionSpec(.valuesPerKeypoint, .integer(2...16), "N", help: "raw SSD: values per keypoint (default 2)"),
            OptionSpec(.boxScale, .number(1e-6...1e9), "S", help: "raw SSD: x/y/w/h scale (default: the input width)"),
            OptionSpec(.xScale, .number(1e-6...1e9), "S", help: "raw SSD: x scale"),
            OptionSpec(.yScale, .number(1e-6...1e9), "S", help: "raw SSD: y scale"),
            OptionSpec(.wScale, .number(1e-6...1e9), "S", help: "raw SSD: w scale"),
            OptionSpec(.hScale, .number(1e-6...1e9), "S", help: "raw SSD: h scale"),
            OptionSpec(.noExpBoxSize, .flag, help: "raw SSD: box sizes are linear, not exponential"),
            OptionSpec(.noSigmoidScore, .flag, help: "raw SSD: scores are already probabilities"),
            OptionSpec(
                .head, .choice(YOLOHeadLayout.Override.allCases.map(\.rawValue)),
                help: "YOLO: the output layout, when the model's shape cannot tell"),
        ],
        notes:
            "Detectors with the TFLite_Detection_PostProcess op: --labels (and --mean/--std for float inputs).\nRaw "
            + "SSD detectors: --blazeface-short-range or --anchor-strides with the --anchor-* "
            + "options.\nClassifiers: --labels, --score-threshold, --mean/--std.\nYOLO detectors: nothing "
            + "needed (--labels to replace Ultralytics' class names, --score-threshold, --head).",
        run: run)

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        var args = p
        guard let input = args.string(.model), let output = args.string(.output) else {
            throw CLIError.usage("metadata needs --model IN.tflite --output OUT.tflite")
        }
        let file: ModelFile
        file = try ModelFile(contentsOfFile: input)
        if (try? file.detectionPostProcessOptions()) ?? nil != nil {
            return try postProcessed(file, args, output: output, console)
        }
        let ultralytics = try DetectionHead.ultralyticsMetadata(file)
        let head = args.string(.head).flatMap(YOLOHeadLayout.Override.init(rawValue:))
        if file.subgraphs[0].outputTensors.count == 1,
            YOLOHeadLayout.applies(to: file, metadata: ultralytics, override: head)
        {
            return try yolo(file, args, ultralytics: ultralytics, head: head, output: output, console)
        }
        if file.subgraphs[0].outputTensors.count == 1 && args.string(.anchorStrides) == nil
            && !args.flag(.blazefaceShortRange)
        {
            return try classifier(file, &args, output: output, console)
        }
        var anchors: SSDAnchors
        if args.flag(.blazefaceShortRange) {
            anchors = .blazeFaceShortRange
        } else {
            let strides = try args.list(.anchorStrides).map { s -> Int in
                guard let v = Int(s), (1...65536).contains(v) else {
                    throw CLIError.usage("--anchor-strides takes integers from 1 to 65536")
                }
                return v
            }
            let ratios = try args.list(.anchorAspectRatios).map { s -> Float in
                guard let v = Float(s) else { throw CLIError.usage("--anchor-aspect-ratios takes numbers") }
                return v
            }
            guard !strides.isEmpty else {
                throw CLIError.usage(
                    "give --blazeface-short-range or --anchor-strides (with the other --anchor-* options)")
            }
            let input = file.subgraphs[0].inputTensors.first?.shape ?? []
            anchors = SSDAnchors(
                numLayers: strides.count, minScale: args.float(.anchorMinScale) ?? 0.2,
                maxScale: args.float(.anchorMaxScale) ?? 0.95,
                inputWidth: args.int(.anchorInputWidth) ?? (input.count == 4 ? input[2] : 0),
                inputHeight: args.int(.anchorInputHeight) ?? (input.count == 4 ? input[1] : 0),
                strides: strides, aspectRatios: ratios.isEmpty ? [1] : ratios,
                fixedAnchorSize: args.flag(.anchorFixedSize))
        }
        let generated: [DetectorMetadata.Anchor]
        do { generated = try anchors.generate() } catch let e as TFLiteModelError { throw CLIError.usage(e.message) }
        let outputs = file.subgraphs[0].outputTensors
        guard outputs.count == 2 else {
            throw CLIError.failure("A raw SSD detector has 2 outputs (boxes, scores); this model has \(outputs.count).")
        }
        let boxCoords = outputs[0].shape.last ?? 0
        /// A count option within `range`, as the Int32 DETECTOR_METADATA stores.
        func count(_ name: OptionName, _ fallback: Int, _ range: ClosedRange<Int>) -> Int32 {
            Int32(clamping: args.int(name) ?? fallback)
        }
        let numClasses = Int(count(.numClasses, outputs[1].shape.last ?? 1, 1...100_000))
        let scale = args.float(.boxScale) ?? Float(anchors.inputWidth)
        let decoding = DetectorMetadata.DecodingOptions(
            numClasses: Int32(numClasses), numBoxes: Int32(generated.count),
            numCoords: count(.numCoords, boxCoords, 4...100_000),
            keypointCoordOffset: count(.keypointOffset, 4, 4...100_000), numKeypoints: count(.keypoints, 0, 0...10_000),
            numValuesPerKeypoint: count(.valuesPerKeypoint, 2, 2...16),
            xScale: args.float(.xScale) ?? scale, yScale: args.float(.yScale) ?? scale,
            wScale: args.float(.wScale) ?? scale, hScale: args.float(.hScale) ?? scale,
            applyExponentialOnBoxSize: !args.flag(.noExpBoxSize), sigmoidScore: !args.flag(.noSigmoidScore))
        let labelsPath = args.string(.labels)
        let mean = args.float(.mean), std = args.float(.std)

        let labels = try labelsPath.map(readLabels)
        let normalization = mean.flatMap { m in std.map { (mean: m, std: $0) } }
        let bytes = try DetectorMetadataWriter.write(
            file, anchors: generated, decoding: decoding, labels: labels, normalization: normalization)
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
            throw CLIError.failure("Cannot write \(output).")
        }
        console.out(
            "wrote \(output): \(generated.count) anchors, \(numClasses) classes, \(decoding.numCoords) coordinates "
                + "per box"
        )
    }

    /// A detector with the post-processing op: labels (`--labels`, required) and, for float
    /// inputs, `--mean M --std S`.
    static func postProcessed(_ file: ModelFile, _ args: ParsedCommand, output: String, _ console: Console) throws {
        guard let labelsPath = args.string(.labels) else {
            throw CLIError.usage(
                "this detector ends in TFLite_Detection_PostProcess: give --labels FILE (one label per class "
                    + "id)\(file.subgraphs[0].inputTensors.first?.type == .float32 ? " and --mean M --std S" : "")"
            )
        }
        let labels = try readLabels(labelsPath)
        let mean = args.float(.mean), std = args.float(.std)
        let normalization = mean.flatMap { m in std.map { (mean: m, std: $0) } }
        let bytes = try PostProcessDetectorMetadataWriter.write(file, labels: labels, normalization: normalization)
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
            throw CLIError.failure("Cannot write \(output).")
        }
        let count = (try? LabelMap.parseLines(labels.contents).count) ?? 0
        console.out(
            "wrote \(output): detector metadata (location, category, score, number of detections), \(count) labels "
                + "from \(labels.name)"
                + (normalization.map { ", normalization mean \($0.mean) std \($0.std)" } ?? ""))
    }

    /// Classifier metadata: `--labels FILE` (one label per class), `--mean M --std S`, `--score-threshold T`.
    static func classifier(_ file: ModelFile, _ args: inout ParsedCommand, output: String, _ console: Console) throws {
        let labelsPath = args.string(.labels)
        let mean = args.float(.mean), std = args.float(.std)
        let threshold = args.float(.scoreThreshold)
        guard labelsPath != nil || threshold != nil || (mean != nil && std != nil) else {
            throw CLIError.usage("for a classifier, give --labels FILE, --score-threshold T and/or --mean M --std S")
        }
        let labels = try labelsPath.map(readLabels)
        let normalization = mean.flatMap { m in std.map { (mean: m, std: $0) } }
        let bytes = try ClassifierMetadataWriter.write(
            file, labels: labels, normalization: normalization, scoreThreshold: threshold)
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
            throw CLIError.failure("Cannot write \(output).")
        }
        console.out(
            "wrote \(output): classifier metadata" + (labels.map { ", labels \($0.name)" } ?? "")
                + (threshold.map { ", score threshold \($0)" } ?? ""))
    }

    /// A YOLO detector: its head described on the output, a label file (`--labels`, else
    /// Ultralytics' class names as `labels.txt`), `--score-threshold`.
    static func yolo(
        _ file: ModelFile, _ args: ParsedCommand, ultralytics: UltralyticsMetadata?, head: YOLOHeadLayout.Override?,
        output: String, _ console: Console
    ) throws {
        let layout: YOLOHeadLayout
        layout = try YOLOHeadLayout.resolve(file, metadata: ultralytics, override: head)
        let classes: Int
        switch layout {
        case .channelsFirst(let c, _), .channelsLast(let c, _): classes = c
        case .endToEnd: classes = ultralytics?.names.count ?? 0
        }
        let labels: (name: String, contents: [UInt8])
        if let path = args.string(.labels) {
            labels = try readLabels(path)
        } else if let names = ultralytics?.labels {
            labels = ("labels.txt", Array(names.joined(separator: "\n").utf8) + [10])
        } else {
            throw CLIError.usage("this YOLO model has no class names: give --labels FILE (one name per class id)")
        }
        let count = (try? LabelMap.parseLines(labels.contents).count) ?? 0
        let threshold = args.float(.scoreThreshold)
        let bytes = try YOLOMetadataWriter.write(
            file, labels: labels, classes: classes == 0 ? count : classes, description: "YOLO " + layout.summary,
            scoreThreshold: threshold)
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
            throw CLIError.failure("Cannot write \(output).")
        }
        console.out(
            "wrote \(output): YOLO \(layout.summary); \(count) labels from \(labels.name)"
                + (threshold.map { ", score threshold \($0)" } ?? ""))
    }

    /// A label file as the metadata stores it: its name and bytes.
    static func readLabels(_ path: String) throws -> (name: String, contents: [UInt8]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.failure("Cannot read \(path).")
        }
        return ((path as NSString).lastPathComponent, [UInt8](data))
    }
}
