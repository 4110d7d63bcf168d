import CKernels
import Foundation
import LiteRT
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// VisionTasks' detection post-processing kernel against LiteRT's built-in `TFLite_Detection_PostProcess`,
/// bit for bit: single-op models with float and uint8 encodings, scores and anchors, with and without a
/// background class, longer box encodings, ties, NaNs (first in a row too), infinities, signed zeros and
/// overflowing encodings, many or few candidates; SSD MobileNet v1 and FPNLite whole; ops it must leave
/// to LiteRT are not rewritten.
@Suite("Exact detection post-processing kernel", .enabled(if: TestAssets.shouldRun))
struct DetectionPostProcessKernelTests {
    typealias Random = TestRandom

    struct Case: CustomStringConvertible {
        var anchors = 300, classes = 20, background = true, boxLength = 4
        var maxDetections = 10, scoreThreshold = 0.3, iou = 0.6
        var quantizedBoxes = false, quantizedScores = false
        /// Odd anchors repeat the one before, with the same encodings (IoU exactly 1) in trial 0.
        var duplicates = false
        var scales: (y: Double, x: Double, h: Double, w: Double) = (10, 10, 5, 5)
        var description: String {
            "\(anchors) anchors × \(classes)\(background ? "+1" : "") classes, box \(boxLength), max \(maxDetections), "
                + "score ≥ \(scoreThreshold), IoU \(iou)\(quantizedBoxes ? ", uint8 boxes" : "")"
                + "\(quantizedScores ? ", uint8 scores" : "")"
        }
        var scoreWidth: Int { classes + (background ? 1 : 0) }
    }

    static let cases: [Case] = [
        Case(),
        Case(anchors: 1917, classes: 90, maxDetections: 10, scoreThreshold: 1e-8),  // SSD's sizes
        Case(anchors: 500, classes: 90, scoreThreshold: 0, quantizedBoxes: true, quantizedScores: true),  // SSD v1
        Case(anchors: 400, classes: 7, background: false, boxLength: 6, maxDetections: 25, scoreThreshold: 0.5),
        Case(anchors: 200, classes: 3, maxDetections: 100, scoreThreshold: 0.9, iou: 1, duplicates: true),
        Case(anchors: 257, classes: 1, background: false, maxDetections: 7, scoreThreshold: 0.2, iou: 0.05),
        Case(anchors: 333, classes: 5, quantizedScores: true, scales: (7.5, 3, 2.5, 1)),
    ]

    /// Anchors on a grid of overlapping boxes of a few sizes (y, x, h, w), so that many boxes suppress each other.
    static func anchors(_ n: Int, _ r: inout Random) -> [Float] {
        (0..<n).flatMap { i -> [Float] in
            let cell = Float(i / 3 % 16), row = Float(i / 48 % 16), size = [0.1, 0.2, 0.35][i % 3]
            return [(row + 0.5) / 16, (cell + 0.5) / 16, Float(size) * Self.unit(&r, 0.8, 1.2), Float(size)]
        }
    }

    static func unit(_ r: inout Random, _ lo: Float = 0, _ hi: Float = 1) -> Float {
        lo + (hi - lo) * Float(r.next() >> 40) / Float(1 << 24)
    }

    static func bytes(_ floats: [Float]) -> [UInt8] {
        floats.flatMap { f in withUnsafeBytes(of: f.bitPattern.littleEndian) { Array($0) } }
    }

    static func model(_ k: Case, anchors: [Float], options: [UInt8]? = nil) throws -> [UInt8] {
        var b = ModelBuilder(description: "post-processing")
        let q8 = Tensor.QuantizationParameters(scales: [0.05], zeroPoints: [128])
        let boxes = b.addTensor(
            Tensor(
                name: "boxes", shape: [1, k.anchors, k.boxLength], type: k.quantizedBoxes ? .uint8 : .float32,
                quantization: k.quantizedBoxes ? q8 : nil))
        let scores = b.addTensor(
            Tensor(
                name: "scores", shape: [1, k.anchors, k.scoreWidth], type: k.quantizedScores ? .uint8 : .float32,
                quantization: k.quantizedScores ? .init(scales: [0.00390625], zeroPoints: [0]) : nil))
        let anchorTensor: Int
        if k.quantizedBoxes {
            let q = anchors.map { UInt8(max(0, min(255, ($0 / 0.005).rounded()))) }
            anchorTensor = b.addTensor(
                Tensor(
                    name: "anchors", shape: [k.anchors, 4], type: .uint8, buffer: b.addBuffer(q),
                    quantization: .init(scales: [0.005], zeroPoints: [0])))
        } else {
            anchorTensor = b.addConstant(name: "anchors", shape: [k.anchors, 4], floats: anchors)
        }
        let shapes = [[1, k.maxDetections, 4], [1, k.maxDetections], [1, k.maxDetections], [1]]
        let outputs = shapes.enumerated().map { b.addTensor(Tensor(name: "out\($0)", shape: $1, type: .float32)) }
        let op = b.opcode(
            OperatorCode(builtinCode: OperatorCode.custom, customCode: DetectionPostProcessOptions.opName))
        let flex =
            options
            ?? FlexBufferBuilder.detectionOptions(
                [
                    "max_detections": .int(Int64(k.maxDetections)), "nms_score_threshold": .float(k.scoreThreshold),
                    "nms_iou_threshold": .float(k.iou), "y_scale": .float(k.scales.y), "x_scale": .float(k.scales.x),
                    "h_scale": .float(k.scales.h), "w_scale": .float(k.scales.w),
                ], classes: k.classes)
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: op, inputs: [boxes, scores, anchorTensor], outputs: outputs, customOptions: flex)
        ]
        b.inputs = [boxes, scores]
        b.outputs = outputs
        return try b.build()
    }

    /// Inputs of trial `trial`: random, tied scores, special values (NaN, signed zeros, huge encodings).
    static func inputs(_ k: Case, trial: Int, _ r: inout Random) -> (boxes: [UInt8], scores: [UInt8]) {
        let boxCount = k.anchors * k.boxLength, scoreCount = k.anchors * k.scoreWidth
        if k.quantizedBoxes || k.quantizedScores {
            let boxes: [UInt8] = (0..<boxCount).map { _ in UInt8(truncatingIfNeeded: 128 + Int(r.next() % 41) - 20) }
            let scores: [UInt8] = (0..<scoreCount).map { i in
                trial == 1 ? UInt8(i % 7 * 30) : UInt8(truncatingIfNeeded: r.next() % (trial == 2 ? 4 : 256))
            }
            return (
                k.quantizedBoxes ? boxes : bytes((0..<boxCount).map { _ in unit(&r, -2, 2) }),
                k.quantizedScores ? scores : bytes(scores.map { Float($0) / 255 })
            )
        }
        var boxes = (0..<boxCount).map { _ in unit(&r, -2, 2) }
        var scores = (0..<scoreCount).map { _ in unit(&r) }
        if k.duplicates && trial == 0 {  // boxes equal to the one before: not suppressed at IoU threshold 1
            for i in stride(from: 1, to: k.anchors, by: 2) {
                for j in 0..<k.boxLength { boxes[i * k.boxLength + j] = boxes[(i - 1) * k.boxLength + j] }
            }
        }
        switch trial {
        case 1:  // few distinct values: ties everywhere, equal to the threshold too
            scores = scores.map { ($0 * 8).rounded(.down) / 8 }
        case 2:
            for i in stride(from: 0, to: scoreCount, by: 13) { scores[i] = .nan }
            for i in stride(from: 5, to: scoreCount, by: 17) { scores[i] = i % 2 == 0 ? -0.0 : 0.0 }
            for i in stride(from: 2, to: boxCount, by: 29) { boxes[i] = i % 3 == 0 ? 900 : -900 }
            if k.anchors > 3 { scores[k.scoreWidth * 3] = .infinity }
            if k.anchors > 9 {
                for c in 0..<k.scoreWidth { scores[k.scoreWidth * 7 + c] = .nan }  // a row of NaNs
                scores[k.scoreWidth * 9 + k.scoreWidth - k.classes] = .nan  // first class NaN, the rest decides
                scores[k.scoreWidth * 9 + k.scoreWidth - 1] = 0.999
            }
            // LiteRT's arg max reduces four lanes (values 0, 4, 8… / 1, 5, 9… of a row's classes) and then
            // takes the values past the last whole block of four: rows whose lane j is all NaN, or whose last
            // values are, with high scores elsewhere so that they are detections.
            let offset = k.scoreWidth - k.classes
            for (n, row) in [11, 13, 15, 17, 19].enumerated() where row < k.anchors {
                for c in 0..<k.classes {
                    let tail = c >= k.classes / 4 * 4
                    let nan = n < 4 ? (n == 3 ? tail : c % 4 == n && !(n == 2 && tail)) : c % 4 != 3
                    scores[row * k.scoreWidth + offset + c] = nan ? .nan : 5 + Float(c % 5) * 0.25 + Float(row)
                }
            }
        default: break
        }
        return (bytes(boxes), bytes(scores))
    }

    /// The four outputs as float arrays (boxes, classes, scores, count).
    static func run(_ compiled: CompiledModel, _ boxes: [UInt8], _ scores: [UInt8]) throws -> [[Float]] {
        try boxes.withUnsafeBytes { try compiled.setInput(0, bytes: $0) }
        try scores.withUnsafeBytes { try compiled.setInput(1, bytes: $0) }
        try compiled.run()
        return floats(try (0..<4).map { try compiled.outputBytes($0) })
    }

    /// Output bytes as float32 arrays.
    static func floats(_ outputs: [[UInt8]]) -> [[Float]] {
        outputs.map { bytes in bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }
    }

    /// Whether `a` and `b` agree bit for bit on the count and on the detections it covers (LiteRT's
    /// fast NMS leaves the slots past the count as they were; ours zeroes them).
    static func same(_ a: [[Float]], _ b: [[Float]]) -> Bool {
        guard a.count == 4, b.count == 4, let n = a[3].first, let m = b[3].first, n.bitPattern == m.bitPattern,
            n >= 0, n <= Float(a[1].count)
        else { return false }
        let count = Int(n)
        func bits(_ x: ArraySlice<Float>) -> [UInt32] { x.map(\.bitPattern) }
        return bits(a[0].prefix(count * 4)) == bits(b[0].prefix(count * 4))
            && bits(a[1].prefix(count)) == bits(b[1].prefix(count))
            && bits(a[2].prefix(count)) == bits(b[2].prefix(count))
    }

    @Test("bit-identical to LiteRT's TFLite_Detection_PostProcess", arguments: cases)
    func bitIdentical(_ k: Case) throws {
        var r = Random(state: 0x2545_F491_4F6C_DD1D &+ UInt64(k.anchors * 7 + k.classes))
        var anchors = Self.anchors(k.anchors, &r)
        if k.duplicates {
            for i in stride(from: 1, to: k.anchors, by: 2) {
                anchors.replaceSubrange(i * 4..<i * 4 + 4, with: anchors[i * 4 - 4..<i * 4])
            }
        }
        let bytes = try Self.model(k, anchors: anchors)
        let builtin = try ModelResources(bytes: bytes, kernels: .standard.with(postProcess: false))
        let ours = try ModelResources(bytes: bytes, kernels: .standard.with(postProcess: true))
        #expect(builtin.customOps.isEmpty && ours.detectionPostProcessOps == 1)
        let a = try CompiledModel(model: builtin.runtimeModel, threads: 1)
        let b = try CompiledModel(model: ours.runtimeModel, threads: 1, customOps: ours.customOps)
        var detections = 0
        for trial in 0..<3 {
            let (boxes, scores) = Self.inputs(k, trial: trial, &r)
            let x = try Self.run(a, boxes, scores), y = try Self.run(b, boxes, scores)
            #expect(Self.same(x, y), "\(k), trial \(trial): \(x[3]) vs \(y[3]); classes \(x[1]) vs \(y[1])")
            // Slots past the count are zero in ours.
            let count = Int(y[3].first ?? 0)
            #expect(y[2].dropFirst(count).allSatisfy { $0 == 0 } && y[0].dropFirst(count * 4).allSatisfy { $0 == 0 })
            detections += count
        }
        #expect(detections > 0, "\(k): no detection in any trial")
    }

    @Test(
        "SSD MobileNet v1 and FPNLite: the post-processing op runs on the kernel; outputs identical",
        arguments: [
            "ssd_mobilenet_v1_coco_quant_metadata.tflite", "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite",
        ])
    func models(name: String) throws {
        let path = TestAssets.model(name)
        let builtin = try ModelResources(
            path: path, kernels: .builtin)
        let ours = try ModelResources(
            path: path,
            kernels: .standard.with(hybridDepthwise: false, conv1x1: false, depthwise: false, postProcess: true))
        #expect(builtin.customOps.isEmpty && ours.detectionPostProcessOps == 1)
        let a = try CompiledModel(model: builtin.runtimeModel, threads: 1)
        let count = a.inputs[0].byteCount
        let float = name.contains("fpnlite")
        var r = Random(state: 99)
        for threads in [1, 2] {
            let b = try CompiledModel(model: ours.runtimeModel, threads: threads, customOps: ours.customOps)
            for trial in 0..<3 {
                let input: [UInt8] =
                    float
                    ? Self.bytes(
                        (0..<count / 4).map { i in trial == 0 ? Self.unit(&r, -1, 1) : Float(i % 97) / 48 - 1 })
                    : (0..<count).map { i in trial == 0 ? UInt8(truncatingIfNeeded: r.next()) : UInt8(i / 3 % 256) }
                let (x, y) = (try Self.floats(a.outputs(for: input)), try Self.floats(b.outputs(for: input)))
                #expect(Self.same(x, y), "\(name), \(threads) threads, trial \(trial)")
                #expect((y.last?.first ?? 0) > 0)
            }
        }
    }

    @Test("ops the kernel leaves to LiteRT are not rewritten")
    func leftToLiteRT() throws {
        var r = Random(state: 5)
        let k = Case(anchors: 12, classes: 3)
        let anchors = Self.anchors(k.anchors, &r)
        func rewritten(_ options: [String: FlexBufferBuilder.Value], anchors: [Float]) throws -> Int {
            let bytes = try Self.model(
                k, anchors: anchors, options: FlexBufferBuilder.detectionOptions(options, classes: k.classes))
            return try ModelResources(bytes: bytes, kernels: .standard.with(postProcess: true)).detectionPostProcessOps
        }
        #expect(try rewritten([:], anchors: anchors) == 1)
        #expect(try rewritten(["use_regular_nms": .bool(true)], anchors: anchors) == 0)
        #expect(try rewritten(["max_classes_per_detection": .int(2)], anchors: anchors) == 0)
        // (IoU thresholds outside (0, 1] are refused earlier, by the model checks.)
        var negative = anchors
        negative[4 * 5 + 3] = -0.1  // anchor 5's width
        #expect(try rewritten([:], anchors: negative) == 0)
    }

    @Test("invalid parameters and malformed options are refused")
    func invalid() {
        let anchors = [Float](repeating: 0.5, count: 8)
        func make(_ edit: (inout vt_dpp_params) -> Void) -> Bool {
            anchors.withUnsafeBytes { a in
                var p = vt_dpp_params(
                    max_detections: 3, num_classes: 2, anchor_count: 2, box_type: 1, score_type: 1, box_zero_point: 0,
                    score_zero_point: 0, anchor_zero_point: 0, box_scale: 1, score_scale: 1, anchor_scale: 1,
                    score_threshold: 0.1, iou_threshold: 0.6, y_scale: 10, x_scale: 10, h_scale: 5, w_scale: 5,
                    anchors: a.baseAddress)
                edit(&p)
                let op = vt_dpp_create(&p)
                defer { vt_dpp_free(op) }
                return op != nil
            }
        }
        #expect(make { _ in })
        #expect(!make { $0.iou_threshold = 0 })
        #expect(!make { $0.iou_threshold = .nan })
        #expect(!make { $0.max_detections = 0 })
        #expect(!make { $0.num_classes = 0 })
        #expect(!make { $0.box_type = 2 })
        #expect(
            !make {
                $0.score_type = 3; $0.score_scale = 0
            })
        #expect(
            !make {
                $0.score_type = 3; $0.score_zero_point = 256
            })
        // Options: "VTDP", 9 int32, 9 floats, the anchors padded to 4.
        func options(_ edit: (inout [Int32]) -> Void = { _ in }, extra: Int = 0) -> [UInt8] {
            var ints: [Int32] = [1, 3, 2, 2, 1, 0, 1, 0, 0]
            edit(&ints)
            var out = Array("VTDP".utf8)
            for v in ints { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
            for v in [Float(0.1), 0.6, 10, 10, 5, 5, 1, 1, 1] {
                withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 }
            }
            out += Self.bytes(anchors) + [UInt8](repeating: 0, count: extra)
            return out
        }
        func decode(_ o: [UInt8]) -> Int32 {
            var p = vt_dpp_params()
            return vt_dpp_decode_options(o, o.count, &p)
        }
        #expect(decode(options()) == 0)
        #expect(decode(options(extra: 4)) == -1)
        #expect(decode(Array(options().dropLast())) == -1)
        #expect(decode(options { $0[0] = 2 }) == -1)
        #expect(decode(options { $0[3] = 0 }) == -1)
        #expect(decode(options { $0[4] = 3 }) == -1)  // uint8 anchors: 8 bytes, not 32
    }
}
