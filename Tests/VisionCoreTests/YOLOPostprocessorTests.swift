import Foundation
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// The YOLO decoder on crafted outputs of the [1, 17, 756] fixture head: box units (read from the
/// values without Ultralytics' metadata, or forced), the best allowed class per anchor, the
/// threshold, class-aware and class-agnostic NMS, end-to-end rows.
@Suite("YOLO decoding on crafted outputs")
struct YOLOPostprocessorTests {
    static let path = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/yolo/yolov8t_float32.tflite").path
    static let anchors = 756, classes = 13

    static func decoder(
        _ yolo: YOLODecoding = YOLODecoding(), options: DetectorOptions = DetectorOptions(), metadata: Bool = false
    ) throws -> YOLOPostprocessor {
        let resources = try ModelResources(path: path)
        return try YOLOPostprocessor(
            resources: resources, metadata: metadata ? try resources.file.ultralyticsMetadata() : nil, options: options,
            yolo: yolo)
    }

    /// A [1, 4+C, N] output with the given anchors set: (anchor, cx, cy, w, h, class, score).
    static func head(_ boxes: [(Int, Float, Float, Float, Float, Int, Float)]) -> [Float] {
        var v = [Float](repeating: 0, count: (4 + classes) * anchors)
        for (a, cx, cy, w, h, c, s) in boxes {
            for (row, value) in [cx, cy, w, h].enumerated() { v[row * anchors + a] = value }
            v[(4 + c) * anchors + a] = s
        }
        return v
    }

    static func decode(_ d: YOLOPostprocessor, _ values: [Float]) throws -> [YOLOPostprocessor.Candidate] {
        try values.withUnsafeBufferPointer { d.suppress(try d.candidates($0)) }
    }

    @Test("box units: pixels and fractions of the input read from the values, or forced")
    func units() throws {
        let d = try Self.decoder()
        #expect(d.boxUnits == nil)
        let pixels = try Self.decode(d, Self.head([(5, 96, 96, 20, 10, 3, 0.9)]))
        #expect(pixels == [YOLOPostprocessor.Candidate(x1: 86, y1: 91, x2: 106, y2: 101, score: 0.9, classIndex: 3)])
        let fractions = try Self.decode(d, Self.head([(5, 0.5, 0.5, Float(20) / 192, Float(10) / 192, 3, 0.9)]))
        #expect(fractions.count == 1 && abs(fractions[0].x1 - 86) < 1e-4 && abs(fractions[0].y2 - 101) < 1e-4)
        let forced = try Self.decode(
            try Self.decoder(YOLODecoding(boxUnits: .pixels)), Self.head([(5, 0.5, 0.5, 0.1, 0.1, 3, 0.9)]))
        #expect(forced.count == 1 && abs(forced[0].x2 - 0.55) < 1e-6)
        // With Ultralytics' metadata the export's convention (normalized) applies.
        #expect(try Self.decoder(metadata: true).boxUnits == .normalized)
    }

    @Test("threshold (0.25 unless given), best allowed class, class-aware and agnostic NMS, maxDetections")
    func selection() throws {
        // Two overlapping boxes of different classes, a third overlapping the first with its class, one below 0.25.
        let values = Self.head([
            (0, 50, 50, 40, 40, 1, 0.9), (1, 52, 50, 40, 40, 2, 0.8), (2, 51, 51, 40, 40, 1, 0.7),
            (3, 150, 150, 10, 10, 4, 0.2),
        ])
        let aware = try Self.decode(try Self.decoder(), values)
        #expect(aware.map(\.classIndex) == [1, 2] && aware.map(\.score) == [0.9, 0.8])
        #expect(try Self.decode(try Self.decoder(YOLODecoding(classAgnostic: true)), values).map(\.classIndex) == [1])
        #expect(
            try Self.decode(try Self.decoder(YOLODecoding(iouThreshold: 0.95)), values).map(\.score) == [0.9, 0.8, 0.7])
        #expect(try Self.decode(try Self.decoder(options: DetectorOptions(scoreThreshold: 0.1)), values).count == 3)
        #expect(try Self.decode(try Self.decoder(YOLODecoding(maxDetections: 1)), values).count == 1)
        // Denying class 1: anchor 0 and 2 fall back to their next class (none scores here), class 2 stays.
        let deny = DetectorOptions(scoreThreshold: 0.1, categoryDenylist: ["giraffe"])
        let denied = try Self.decode(try Self.decoder(options: deny, metadata: true), values)
        #expect(denied.map(\.classIndex) == [2, 4])
        // Lists need names: without Ultralytics' metadata (or a label file) MediaPipe's refusal.
        #expect(
            throws: VisionCoreError(
                .invalidArgument,
                "Using `category_allowlist` or `category_denylist` requires labels to be present in the TFLite Model "
                    + "Metadata but none was found."
            )
        ) { try Self.decoder(options: deny) }
    }

    @Test("end-to-end rows: kept in order above the threshold, no NMS; a wrong size is an internal error")
    func endToEnd() throws {
        let resources = try ModelResources(
            path: TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/yolo/yolo26t_e2e_float32.tflite").path)
        let d = try YOLOPostprocessor(
            resources: resources, metadata: try resources.file.ultralyticsMetadata(), options: DetectorOptions(),
            yolo: YOLODecoding())
        var rows = [Float](repeating: 0, count: 300 * 6)
        rows.replaceSubrange(0..<12, with: [10, 10, 50, 50, 0.3, 4, 12, 12, 52, 52, 0.9, 4])
        let kept = try Self.decode(d, rows)
        #expect(kept.map(\.score) == [0.3, 0.9] && kept[1].x2 == 52)
        #expect(throws: VisionCoreError.self) {
            try [Float](repeating: 0, count: 6).withUnsafeBufferPointer { try d.candidates($0) }
        }
    }

    @Test("an output type no YOLO decoder reads is refused when the detector is made")
    func outputType() throws {
        // [1, 3, 64, 64] in → SLICE [1, 3, 28, 17] → RESHAPE [1, 17, 84] → CAST → INT32 out (84 = 8² + 4² + 2²
        // anchors).
        var b = ModelBuilder(description: "int32 YOLO head")
        let input = b.addTensor(Tensor(name: "image", shape: [1, 3, 64, 64], type: .float32))
        let begin = b.addConstant(name: "begin", shape: [4], int32s: [0, 0, 0, 0])
        let size = b.addConstant(name: "size", shape: [4], int32s: [1, 3, 28, 17])
        let sliced = b.addTensor(Tensor(name: "sliced", shape: [1, 3, 28, 17], type: .float32))
        let shape = b.addConstant(name: "shape", shape: [3], int32s: [1, 17, 84])
        let float = b.addTensor(Tensor(name: "head_float", shape: [1, 17, 84], type: .float32))
        let output = b.addTensor(Tensor(name: "head", shape: [1, 17, 84], type: .int32))
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: b.opcode(OperatorCode(builtinCode: 65)), inputs: [input, begin, size], outputs: [sliced]),
            ModelBuilder.Op(
                opcodeIndex: b.opcode(OperatorCode(builtinCode: 22)), inputs: [sliced, shape], outputs: [float]),
            ModelBuilder.Op(opcodeIndex: b.opcode(OperatorCode(builtinCode: 53)), inputs: [float], outputs: [output]),
        ]
        b.inputs = [input]
        b.outputs = [output]
        let resources = try ModelResources(bytes: try b.build())
        #expect(
            throws: VisionCoreError(
                .invalidArgument,
                "Expected the YOLO output to have type FLOAT32, FLOAT16, INT8 or UINT8, found INT32 instead.")
        ) { try ObjectDetectionEngine(resources: resources, options: DetectorOptions()) }
    }
}
