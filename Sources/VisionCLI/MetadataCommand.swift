import Foundation
import TFLiteModel

/// `vision-tasks metadata`: writes MediaPipe-compatible metadata into a model — for raw SSD
/// detectors, the `DETECTOR_METADATA` (anchors and decoding options) MediaPipe's ObjectDetector
/// needs; for classifiers (one output), the labels ML Kit and MediaPipe read, a score threshold;
/// for both, optionally input normalization. The model's weights are kept byte for byte.
enum MetadataCommand {
    static func run(_ raw: [String]) throws {
        var args = try Arguments(raw, booleanFlags: ["blazeface-short-range", "anchor-fixed-size", "no-exp-box-size", "no-sigmoid-score"])
        guard let input = args.string("model"), let output = args.string("output") else {
            throw CLIError.usage("metadata needs --model IN.tflite --output OUT.tflite")
        }
        let file: ModelFile
        do { file = try ModelFile(contentsOfFile: input) } catch let e as TFLiteModelError { throw CLIError.failure(e.message) }
        if file.subgraphs[0].outputTensors.count == 1 && args.peek("anchor-strides") == nil && !args.flag("blazeface-short-range") {
            return try classifier(file, &args, output: output)
        }
        var anchors: SSDAnchors
        if args.flag("blazeface-short-range") {
            anchors = .blazeFaceShortRange
        } else {
            let strides = try args.list("anchor-strides").map { s -> Int in
                guard let v = Int(s), (1...65536).contains(v) else { throw CLIError.usage("--anchor-strides takes integers from 1 to 65536") }
                return v
            }
            let ratios = try args.list("anchor-aspect-ratios").map { s -> Float in
                guard let v = Float(s) else { throw CLIError.usage("--anchor-aspect-ratios takes numbers") }
                return v
            }
            guard !strides.isEmpty else { throw CLIError.usage("give --blazeface-short-range or --anchor-strides (with the other --anchor-* options)") }
            let input = file.subgraphs[0].inputTensors.first?.shape ?? []
            anchors = SSDAnchors(numLayers: strides.count, minScale: try args.float("anchor-min-scale") ?? 0.2,
                                 maxScale: try args.float("anchor-max-scale") ?? 0.95,
                                 inputWidth: try args.int("anchor-input-width") ?? (input.count == 4 ? input[2] : 0),
                                 inputHeight: try args.int("anchor-input-height") ?? (input.count == 4 ? input[1] : 0),
                                 strides: strides, aspectRatios: ratios.isEmpty ? [1] : ratios,
                                 fixedAnchorSize: args.flag("anchor-fixed-size"))
        }
        let generated: [DetectorMetadata.Anchor]
        do { generated = try anchors.generate() } catch let e as TFLiteModelError { throw CLIError.usage(e.message) }
        let outputs = file.subgraphs[0].outputTensors
        guard outputs.count == 2 else { throw CLIError.failure("A raw SSD detector has 2 outputs (boxes, scores); this model has \(outputs.count).") }
        let boxCoords = outputs[0].shape.last ?? 0
        /// A count option within `range`, as the Int32 DETECTOR_METADATA stores.
        func count(_ name: String, _ fallback: Int, _ range: ClosedRange<Int>) throws -> Int32 {
            let v = try args.int(name) ?? fallback
            guard range.contains(v) else { throw CLIError.usage("--\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(v)") }
            return Int32(v)
        }
        let numClasses = Int(try count("num-classes", outputs[1].shape.last ?? 1, 1...100_000))
        let scale = try args.float("box-scale") ?? Float(anchors.inputWidth)
        let decoding = DetectorMetadata.DecodingOptions(
            numClasses: Int32(numClasses), numBoxes: Int32(generated.count), numCoords: try count("num-coords", boxCoords, 4...100_000),
            keypointCoordOffset: try count("keypoint-offset", 4, 4...100_000), numKeypoints: try count("keypoints", 0, 0...10_000),
            numValuesPerKeypoint: try count("values-per-keypoint", 2, 2...16),
            xScale: try args.float("x-scale") ?? scale, yScale: try args.float("y-scale") ?? scale,
            wScale: try args.float("w-scale") ?? scale, hScale: try args.float("h-scale") ?? scale,
            applyExponentialOnBoxSize: !args.flag("no-exp-box-size"), sigmoidScore: !args.flag("no-sigmoid-score"))
        let labelsPath = args.string("labels")
        let mean = try args.float("mean"), std = try args.float("std")
        try args.rejectUnknown()

        let labels = try labelsPath.map(readLabels)
        let normalization = mean.flatMap { m in std.map { (mean: m, std: $0) } }
        let bytes: [UInt8]
        do {
            bytes = try DetectorMetadataWriter.write(file, anchors: generated, decoding: decoding, labels: labels, normalization: normalization)
        } catch let e as TFLiteModelError {
            throw CLIError.failure(e.message)
        }
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else { throw CLIError.failure("Cannot write \(output).") }
        print("wrote \(output): \(generated.count) anchors, \(numClasses) classes, \(decoding.numCoords) coordinates per box")
    }

    /// Classifier metadata: `--labels FILE` (one label per class), `--mean M --std S`, `--score-threshold T`.
    static func classifier(_ file: ModelFile, _ args: inout Arguments, output: String) throws {
        let labelsPath = args.string("labels")
        let mean = try args.float("mean"), std = try args.float("std")
        let threshold = try args.float("score-threshold")
        try args.rejectUnknown()
        guard labelsPath != nil || threshold != nil || (mean != nil && std != nil) else {
            throw CLIError.usage("for a classifier, give --labels FILE, --score-threshold T and/or --mean M --std S")
        }
        let labels = try labelsPath.map(readLabels)
        let normalization = mean.flatMap { m in std.map { (mean: m, std: $0) } }
        let bytes: [UInt8]
        do {
            bytes = try ClassifierMetadataWriter.write(file, labels: labels, normalization: normalization, scoreThreshold: threshold)
        } catch let e as TFLiteModelError {
            throw CLIError.failure(e.message)
        }
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else { throw CLIError.failure("Cannot write \(output).") }
        print("wrote \(output): classifier metadata" + (labels.map { ", labels \($0.name)" } ?? "") + (threshold.map { ", score threshold \($0)" } ?? ""))
    }

    /// A label file as the metadata stores it: its name and bytes.
    static func readLabels(_ path: String) throws -> (name: String, contents: [UInt8]) {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError.failure("Cannot read \(path).") }
        return ((path as NSString).lastPathComponent, [UInt8](data))
    }
}
