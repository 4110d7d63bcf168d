import Foundation
import Testing
import VisionTestSupport

@testable import TFLiteModel

/// The model verifier in front of LiteRT: the shared models pass; each class of model that
/// crashed LiteRT or exhausted memory is refused with a message naming the part.
@Suite("Model verification")
struct ModelVerifierTests {
    /// input → ADD constant → output, with `change` applied to the builder.
    static func model(
        _ change: (inout ModelBuilder, _ input: Int, _ constant: Int, _ output: Int) -> Void = { _, _, _, _ in }
    ) throws -> [UInt8] {
        var b = ModelBuilder(description: "verifier")
        b.checksReferences = false
        let input = b.addTensor(Tensor(name: "in", shape: [1, 4, 4, 3], type: .float32))
        let c = b.addConstant(name: "c", shape: [1], floats: [0.5])
        let output = b.addTensor(Tensor(name: "out", shape: [1, 4, 4, 3], type: .float32))
        b.operators = [
            ModelBuilder.Op(opcodeIndex: b.opcode(OperatorCode(builtinCode: 0)), inputs: [input, c], outputs: [output])
        ]
        b.inputs = [input]
        b.outputs = [output]
        change(&b, input, c, output)
        return try b.build()
    }

    /// The verifiers' verdict: nil when accepted, else the message.
    static func verdict(_ bytes: [UInt8], limits: ModelLimits = .standard) -> String? {
        do {
            try FlatBufferVerifier.verifyModel(bytes)
            try ModelVerifier.verify(try ModelFile(bytes: bytes), limits: limits)
            return nil
        } catch let e as TFLiteModelError {
            return e.message
        } catch {
            return "untyped error: \(error)"
        }
    }

    /// What an accepted model guarantees to its readers: every index in range, every buffer readable.
    static func inconsistency(_ bytes: [UInt8]) -> String? {
        do {
            let m = try ModelFile(bytes: bytes)
            for (s, sg) in m.subgraphs.enumerated() {
                let tensorIndex = { (i: Int) in i == -1 || sg.tensors.indices.contains(i) }
                guard (sg.inputs + sg.outputs).allSatisfy({ sg.tensors.indices.contains($0) }) else {
                    return "subgraph \(s): input/output index"
                }
                for (k, op) in sg.operators.enumerated() {
                    guard m.operatorCodes.indices.contains(op.opcodeIndex),
                        (op.inputs + op.outputs).allSatisfy(tensorIndex)
                    else {
                        return "subgraph \(s) operator \(k): index out of range"
                    }
                }
                for t in sg.tensors where t.buffer != 0 {
                    guard t.buffer < m.bufferCount else {
                        return "tensor \(t.name): buffer \(t.buffer) of \(m.bufferCount)"
                    }
                    _ = try m.buffer(t.buffer)
                }
            }
            return nil
        } catch {
            return "accepted, then refused by the reader: \(error)"
        }
    }

    @Test("every shared model passes both verifiers", .enabled(if: TestAssets.shouldRun))
    func sharedModels() throws {
        for name in TestAssets.modelNames {
            #expect(Self.verdict(try TestAssets.bytes(TestAssets.model(name))) == nil, "\(name)")
        }
    }

    @Test(
        """
        operators: missing list, inputs and outputs out of range, −1 where required, written twice, read before \
        written, writing a constant
        """
    )
    func operators() throws {
        #expect(Self.verdict(try Self.model()) == nil)
        // A subgraph whose `operators` field is absent (LiteRT crashed creating the model).
        var bytes = try Self.model()
        let reader = try FlatBufferReader(bytes: bytes)
        let subgraph = try #require(try reader.root().tables(2).first)
        let soffset = Int(try reader.read(subgraph.position, as: Int32.self))
        let vtable = subgraph.position - soffset
        bytes[vtable + 4 + 2 * 3] = 0
        bytes[vtable + 4 + 2 * 3 + 1] = 0
        #expect(Self.verdict(bytes) == "The model cannot be run safely: subgraph 0 lacks its operators.")

        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.operators[0].inputs = [i, 9] })
                == "The model cannot be run safely: operator 0 (ADD) of subgraph 0 reads tensor 9 of 3.")
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.operators[0].inputs = [-1, c] })
                == "The model cannot be run safely: operator 0 (ADD) of subgraph 0 lacks input 0.")
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.operators[0].outputs = [c] })
                == "The model cannot be run safely: operator 0 of subgraph 0 writes tensor 1, which is an input, a "
                + "constant or a variable."
        )
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.operators[0].outputs = [7] })
                == "The model cannot be run safely: operator 0 of subgraph 0 writes tensor 7 of 3.")
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.operators.append(b.operators[0]) })
                == "The model cannot be run safely: operator 1 of subgraph 0 writes tensor 2, which is written by "
                + "operator 0."
        )
        #expect(
            Self.verdict(
                try Self.model { b, i, c, o in
                    let t = b.addTensor(Tensor(name: "t", shape: [1, 4, 4, 3], type: .float32))
                    b.operators = [
                        ModelBuilder.Op(opcodeIndex: 0, inputs: [t, c], outputs: [o]),
                        ModelBuilder.Op(opcodeIndex: 0, inputs: [i, c], outputs: [t]),
                    ]
                })
                == "The model cannot be run safely: operator 0 (ADD) of subgraph 0 reads tensor 3 before operator 1 "
                + "writes it."
        )
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.outputs = [-1] })
                == "The model cannot be run safely: subgraph 0's outputs name tensor -1 of 3.")
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.operators[0].opcodeIndex = 4 })
                == "The model cannot be run safely: operator 0 of subgraph 0 names operator code 4 of 1.")
        // CONV_2D's input −1 (crashed LiteRT and MediaPipe); its bias may be −1.
        #expect(
            Self.verdict(
                try Self.model { b, i, c, o in
                    b.operatorCodes = [OperatorCode(builtinCode: 3)]
                    b.operators[0].inputs = [-1, c, -1]
                }) == "The model cannot be run safely: operator 0 (CONV_2D) of subgraph 0 lacks input 0.")
        #expect(
            Self.verdict(
                try Self.model { b, i, c, o in
                    b.operatorCodes = [OperatorCode(builtinCode: 22)]
                    b.operators[0].inputs = [i, -1]
                }) == "The model cannot be run safely: operator 0 (RESHAPE) of subgraph 0 lacks input 1.")
    }

    @Test("shapes, sizes and quantization: dimension overflow, memory bounds, buffer sizes, zero points without scales")
    func tensors() throws {
        // One activation dimension of 3,870,895 (13.6 GB in LiteRT; MediaPipe: dimension overflow).
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.tensors[o].shape = [1, 3_870_895, 300, 3] })
                == "The model cannot be run safely: tensor 2 ('out') of subgraph 0 of shape [1, 3870895, 300, 3] "
                + "needs more than 256 MiB."
        )
        #expect(
            Self.verdict(
                try Self.model { b, i, c, o in b.tensors[o].shape = [Int(Int32.max), Int(Int32.max), Int(Int32.max)] })?
                .hasPrefix("The model cannot be run safely: tensor 2 ('out') of subgraph 0 has shape") == true)
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.tensors[o].shape = [1, -4, 4, 3] })
                == "The model cannot be run safely: tensor 2 ('out') of subgraph 0 has shape [1, -4, 4, 3].")
        #expect(
            Self.verdict(try Self.model(), limits: ModelLimits(maxTensorBytes: 100, maxActivationBytes: 1 << 30))?
                .contains("needs more than") == true)
        #expect(
            Self.verdict(try Self.model(), limits: ModelLimits(maxTensorBytes: 1 << 20, maxActivationBytes: 300))?
                .contains("its tensors need more than")
                == true)
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.tensors[c].shape = [2] })
                == "The model cannot be run safely: tensor 1 ('c') of subgraph 0 of shape [2] holds 4 bytes, expected "
                + "8."
        )
        #expect(
            Self.verdict(try Self.model { b, i, c, o in b.tensors[i].buffer = 40 })
                == "The model cannot be run safely: tensor 0 ('in') of subgraph 0 names buffer 40 of 2.")
        #expect(
            Self.verdict(
                try Self.model { b, i, c, o in
                    b.tensors[i].quantization = Tensor.QuantizationParameters(
                        scales: [0.5, 0.5], zeroPoints: [0, 0], quantizedDimension: 3)
                })
                == "The model cannot be run safely: tensor 0 ('in') of subgraph 0 has 2 scales for dimension 3 of "
                + "shape [1, 4, 4, 3]."
        )
        #expect(
            Self.verdict(
                try Self.model { b, i, c, o in
                    b.tensors[i].quantization = Tensor.QuantizationParameters(scales: [], zeroPoints: [3], min: [0])
                }) == "The model cannot be run safely: tensor 0 ('in') of subgraph 0 has zero points without scales.")
    }

    /// boxes [1, 4, 4], scores [1, 4, classes], constant anchors [4, 4] → TFLite_Detection_PostProcess.
    static func detector(_ options: [UInt8], classes: Int = 3) throws -> [UInt8] {
        var b = ModelBuilder(description: "ssd")
        let boxes = b.addTensor(Tensor(name: "boxes", shape: [1, 4, 4], type: .float32))
        let scores = b.addTensor(Tensor(name: "scores", shape: [1, 4, classes], type: .float32))
        let anchors = b.addConstant(name: "anchors", shape: [4, 4], floats: [Float](repeating: 0.5, count: 16))
        let outputs = (0..<4).map { b.addTensor(Tensor(name: "out\($0)", shape: [1, 3], type: .float32)) }
        let op = b.opcode(
            OperatorCode(builtinCode: OperatorCode.custom, customCode: DetectionPostProcessOptions.opName))
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: op, inputs: [boxes, scores, anchors], outputs: outputs, customOptions: options)
        ]
        b.inputs = [boxes, scores]
        b.outputs = outputs
        return try b.build()
    }

    @Test("TFLite_Detection_PostProcess options are parsed and range-checked against its tensors")
    func detectionPostProcess() throws {
        #expect(Self.verdict(try Self.detector(FlexBufferBuilder.detectionOptions())) == nil)
        let bad: [[String: FlexBufferBuilder.Value]] = [
            ["max_detections": .float(1e30)], ["max_classes_per_detection": .float(1e30)],
            ["num_classes": .float(1e30)],
            ["num_classes": .int(7)], ["max_detections": .int(0)], ["max_detections": .int(50)],
            ["max_classes_per_detection": .int(3)],
            ["detections_per_class": .int(-1)], ["nms_iou_threshold": .float(.nan)], ["x_scale": .float(0)],
            ["h_scale": .float(.infinity)],
            ["num_classes": .int(-2)],
        ]
        for change in bad {
            let verdict = Self.verdict(try Self.detector(FlexBufferBuilder.detectionOptions(change)))
            #expect(
                verdict?.hasPrefix("The model cannot be run safely: operator 0 of subgraph 0") == true,
                "\(change): \(verdict ?? "accepted")")
        }
        #expect(
            Self.verdict(try Self.detector([1, 2, 3]))?.hasPrefix(
                "The model cannot be run safely: operator 0 of subgraph 0: Invalid FlexBuffer") == true)
        #expect(
            Self.verdict(try Self.detector(FlexBufferBuilder.detectionOptions(), classes: 7))?.contains("out of range")
                == true)
    }

    @Test("the FlatBuffer verifier refuses every truncation and never traps on byte damage")
    func flatBufferDamage() throws {
        let good = try Self.detector(FlexBufferBuilder.detectionOptions())
        for length in stride(from: 0, to: good.count - 1, by: 7) {
            #expect(Self.verdict(Array(good.prefix(length))) != nil, "prefix \(length)")
        }
        let seed = TestRandom.seed(default: 0xF1A7_2026)
        var generator = TestRandom(state: seed)
        var accepted = 0
        for round in 0..<3000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let i = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[i] =
                    [0, 0xFF, 0x7F, 0x80, UInt8.random(in: 0...255, using: &generator)].randomElement(using: &generator)
                    ?? 0
            }
            if let verdict = Self.verdict(bytes) {
                // Every refusal is the verifiers' own error, with what is wrong.
                #expect(
                    !verdict.hasPrefix("untyped error") && !verdict.isEmpty, "seed \(seed), round \(round): \(verdict)")
            } else {
                // Every acceptance is a model its readers can walk without an error.
                accepted += 1
                let problem = Self.inconsistency(bytes)
                #expect(problem == nil, "seed \(seed), round \(round): \(problem ?? "")")
            }
        }
        // Damage to padding and unused fields is accepted; most damage is refused.
        #expect(accepted > 0 && accepted < 1500, "seed \(seed): \(accepted) of 3000 damaged models accepted")
        // A string without its NUL and a vtable outside the buffer.
        var unterminated = good
        if let r = unterminated.firstRange(of: Array("ssd".utf8)) { unterminated[r.upperBound] = 0x41 }
        #expect(Self.verdict(unterminated)?.contains("not NUL-terminated") == true)
    }

    @Test("control flow: subgraph targets exist and no subgraph runs itself")
    func controlFlow() throws {
        #expect(throws: TFLiteModelError.self) { try ModelVerifier.checkCalls([[1], [0]]) }
        #expect(throws: TFLiteModelError.self) { try ModelVerifier.checkCalls([[0]]) }
        try ModelVerifier.checkCalls([[1, 2], [2], []])
    }
}

/// The campaign's crashes (scripts/campaign.py, seed 20261201: LiteRT SIGSEGV on 4 of 5,000
/// mutated models), rebuilt from the shared models by the same one-field mutations.
@Suite("Campaign regressions", .enabled(if: TestAssets.shouldRun))
struct CampaignRegressionTests {
    /// Tensor `index` of the first subgraph of `bytes`.
    static func tensor(_ bytes: [UInt8], _ index: Int) throws -> FlatTable {
        let reader = try FlatBufferReader(bytes: bytes)
        let subgraph = try #require(try reader.root().tables(2).first)
        return try subgraph.tables(0)[index]
    }

    static func write32(_ bytes: inout [UInt8], _ at: Int, _ value: UInt32) {
        for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }

    @Test("scales without zero points (the zero_point field removed from a uint8 tensor)")
    func zeroPointsRemoved() throws {
        var bytes = try TestAssets.bytes(TestAssets.model("mobilenet_v1_0.25_128_quant.tflite"))
        let q = try #require(try Self.tensor(bytes, 88).table(4))
        bytes[q.vtable + 4 + 2 * 3] = 0
        bytes[q.vtable + 4 + 2 * 3 + 1] = 0
        let verdict = ModelVerifierTests.verdict(bytes)
        // The vtable is shared by every tensor of that layout: the first of them is named.
        #expect(
            verdict?.hasPrefix("The model cannot be run safely: tensor ") == true
                && verdict?.contains("scales and 0 zero points") == true,
            "\(verdict ?? "accepted")")
    }

    @Test("a pass-through op whose output rank or size differs from its input (DEQUANTIZE feeding a convolution)")
    func passThroughShapes() throws {
        var face = try TestAssets.bytes(TestAssets.model("face_detection_short_range.tflite"))
        let shape = try #require(try Self.tensor(face, 207).vector(0, elementSize: 4))
        Self.write32(&face, shape.start + 4, 32769)  // [28, 1, 1, 24] → [28, 32769, 1, 24]
        #expect(
            ModelVerifierTests.verdict(face)?.contains(
                "output shape [28, 32769, 1, 24] differs from input shape [28, 1, 1, 24]") == true)

        var sparse = try TestAssets.bytes(TestAssets.model("face_detection_full_range_sparse.tflite"))
        let dims = try #require(try Self.tensor(sparse, 261).vector(0, elementSize: 4))
        Self.write32(&sparse, dims.start - 4, 3)  // rank 4 → 3
        #expect(ModelVerifierTests.verdict(sparse)?.contains("differs from input shape") == true)
    }

    /// Operator `index` of the first subgraph of `bytes`.
    static func op(_ bytes: [UInt8], _ index: Int) throws -> FlatTable {
        let reader = try FlatBufferReader(bytes: bytes)
        let subgraph = try #require(try reader.root().tables(2).first)
        return try subgraph.tables(3)[index]
    }

    @Test("a subnormal quantization scale (XNNPACK refuses it, then the built-in kernel aborts)")
    func subnormalScale() throws {
        var bytes = try TestAssets.bytes(TestAssets.model("aiy_vision_classifier_birds_V1_3.tflite"))
        let q = try #require(try Self.tensor(bytes, 63).table(4))
        let scales = try #require(try q.vector(2, elementSize: 4))
        Self.write32(&bytes, scales.start, 0x0010_0000)
        #expect(ModelVerifierTests.verdict(bytes)?.contains("tensor 63") == true)
        #expect(ModelVerifierTests.verdict(bytes)?.contains("not a positive normal number") == true)
    }

    @Test("a pooling window a million rows high (4 GB in XNNPACK) and a depthwise convolution without its bias slot")
    func windowsAndArity() throws {
        var face = try TestAssets.bytes(TestAssets.model("face_detection_short_range.tflite"))
        let options = try #require(try Self.op(face, 52).table(4))
        let filterHeight = try #require(try options.fieldPosition(4))
        Self.write32(&face, filterHeight, 1 << 20)
        #expect(
            ModelVerifierTests.verdict(face)?.contains("operator 52 (MAX_POOL_2D) of subgraph 0: window 1048576×")
                == true)

        var depthwise = try TestAssets.bytes(TestAssets.model("face_detection_short_range.tflite"))
        let inputs = try #require(try Self.op(depthwise, 61).vector(1, elementSize: 4))
        Self.write32(&depthwise, inputs.start - 4, 2)
        #expect(
            ModelVerifierTests.verdict(depthwise)
                == "The model cannot be run safely: operator 61 (DEPTHWISE_CONV_2D) of subgraph 0: 2 inputs and 1 "
                + "outputs, expected 3–4 and 1."
        )
    }

    @Test(
        """
        constants that set output shapes: PAD paddings grown to 35,000 (8.8 GB, a hang) and a RESHAPE reading \
        another tensor as its shape
        """
    )
    func shapeConstants() throws {
        var face = try TestAssets.bytes(TestAssets.model("face_detection_short_range.tflite"))
        let paddings = try Self.tensor(face, 81)
        let reader = try FlatBufferReader(bytes: face)
        let buffer = try #require(try reader.root().vector(4, elementSize: 4)).table(
            Int(try paddings.scalar(2, default: UInt32(0))))
        let data = try #require(try buffer.vector(0, elementSize: 1))
        face[data.start + 1] = 138  // one padding 0 → 35328
        #expect(
            ModelVerifierTests.verdict(face)?.contains("paddings") == true,
            "\(ModelVerifierTests.verdict(face) ?? "accepted")")

        var ssd = try TestAssets.bytes(TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
        let inputs = try #require(try Self.op(ssd, 38).vector(1, elementSize: 4))
        Self.write32(&ssd, inputs.start + 4, 1)  // RESHAPE's shape input → tensor 1
        #expect(
            ModelVerifierTests.verdict(ssd)?.contains("operator 38 (RESHAPE) of subgraph 0: its shape input") == true)
    }
}
