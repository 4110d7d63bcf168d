import CKernelFormats
import CKernels
import Foundation
import LiteRT
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// VisionTasks' requantization kernel (QUANTIZE between 8-bit types at one scale) against LiteRT's
/// built-in kernel, bit for bit: every byte value through single-op models of each pair of types, with
/// zero points that clamp at both ends; TF2 MobileNet v2 int8, whose first and last ops it takes, whole.
@Suite("Requantization kernel", .enabled(if: TestAssets.shouldRun))
struct RequantizeKernelTests {
    struct Case: CustomStringConvertible {
        var input: TensorType, izp: Int64, output: TensorType, ozp: Int64
        var scale: Float = 0.007_843_138, outputScale: Float? = nil
        var shape = [1, 8, 16, 3]
        var description: String {
            "\(input) zp \(izp) → \(output) zp \(ozp)" + (outputScale.map { " at scale \($0)" } ?? "") + " \(shape)"
        }
    }

    static let cases: [Case] = [
        Case(input: .uint8, izp: 127, output: .int8, ozp: -1),  // TF2 MobileNet v2's first op
        Case(input: .uint8, izp: 128, output: .int8, ozp: 0, shape: [2, 200]),
        Case(input: .int8, izp: -128, output: .uint8, ozp: 0),
        Case(input: .uint8, izp: 0, output: .uint8, ozp: 10, scale: 0.5),  // clamps at 255
        Case(input: .int8, izp: 5, output: .int8, ozp: -100, scale: 3),  // clamps at −128
        Case(input: .uint8, izp: 200, output: .int8, ozp: -128, shape: [256]),  // clamps at −128
        Case(input: .int8, izp: -20, output: .uint8, ozp: 250, scale: 0.01),  // clamps at both ends
    ]

    static func model(_ c: Case) throws -> [UInt8] {
        var b = ModelBuilder(description: "requantize")
        let input = b.addTensor(
            Tensor(
                name: "input", shape: c.shape, type: c.input,
                quantization: .init(scales: [c.scale], zeroPoints: [c.izp])))
        let output = b.addTensor(
            Tensor(
                name: "output", shape: c.shape, type: c.output,
                quantization: .init(scales: [c.outputScale ?? c.scale], zeroPoints: [c.ozp])))
        b.operators = [
            ModelBuilder.Op(opcodeIndex: b.opcode(OperatorCode(builtinCode: 114)), inputs: [input], outputs: [output])
        ]
        b.inputs = [input]
        b.outputs = [output]
        return try b.build()
    }

    @Test("every byte value bit-identical to LiteRT's QUANTIZE, each pair of 8-bit types", arguments: cases)
    func bitIdentical(_ c: Case) throws {
        let bytes = try Self.model(c)
        let builtin = try ModelResources(bytes: bytes, kernels: .builtin)
        let ours = try ModelResources(bytes: bytes, kernels: .builtin.with(requantize: true))
        #expect(builtin.customOps.isEmpty && ours.requantizeOps == 1)
        let count = c.shape.reduce(1, *)
        var r = TestRandom(state: UInt64(count))
        for trial in 0..<2 {
            let input = (0..<count).map { i in trial == 0 ? UInt8(i % 256) : UInt8(truncatingIfNeeded: r.next()) }
            let expected = try runModel(builtin, input)
            for threads in [1, 2] {
                let same = try runModel(ours, input, threads: threads) == expected
                #expect(same, "\(c), trial \(trial), \(threads) threads")
            }
            // The C kernel directly: the same bytes.
            var p = vt_requant8_params(
                input_zero_point: Int32(c.izp), input_signed: c.input == .int8 ? 1 : 0,
                output_zero_point: Int32(c.ozp), output_signed: c.output == .int8 ? 1 : 0)
            var direct = [UInt8](repeating: 0, count: count)
            #expect(vt_requant8_run(&p, input, count, &direct) == 0 && direct == expected, "\(c) directly")
        }
    }

    @Test("not taken: two scales, a float input or output, a per-channel output")
    func notTaken() throws {
        let kernels = KernelChoice.builtin.with(requantize: true)
        let twoScales = try Self.model(Case(input: .uint8, izp: 127, output: .int8, ozp: -1, outputScale: 0.0079))
        #expect(try ModelResources(bytes: twoScales, kernels: kernels).requantizeOps == 0)
        var b = ModelBuilder(description: "float quantize")
        let input = b.addTensor(Tensor(name: "input", shape: [1, 4], type: .float32))
        let output = b.addTensor(
            Tensor(name: "output", shape: [1, 4], type: .int8, quantization: .init(scales: [0.1], zeroPoints: [0])))
        b.operators = [
            ModelBuilder.Op(opcodeIndex: b.opcode(OperatorCode(builtinCode: 114)), inputs: [input], outputs: [output])
        ]
        b.inputs = [input]
        b.outputs = [output]
        #expect(try ModelResources(bytes: try b.build(), kernels: kernels).requantizeOps == 0)
    }

    @Test("TF2 MobileNet v2 int8: its first and last ops on the kernel; scores identical to LiteRT's")
    func tf2() throws {
        let path = TestAssets.model("tf2_mobilenet_v2_1.0_224_ptq.tflite")
        let builtin = try ModelResources(path: path, kernels: .builtin)
        let ours = try ModelResources(path: path, kernels: .builtin.with(requantize: true))
        // uint8 pixels to int8 first, the int8 scores to uint8 last.
        #expect(ours.requantizeOps == 2 && ours.customOps.count == 2, "\(ours.customOps)")
        let a = try CompiledModel(model: builtin.runtimeModel, threads: 1)
        let b = try CompiledModel(model: ours.runtimeModel, threads: 1, customOps: ours.customOps)
        var r = TestRandom(state: 41)
        let input = (0..<a.inputs[0].byteCount).map { _ in UInt8(truncatingIfNeeded: r.next()) }
        #expect(try a.outputs(for: input) == b.outputs(for: input))
    }

    @Test("invalid parameters and malformed options are refused")
    func refused() {
        var p = vt_requant8_params(input_zero_point: 128, input_signed: 1, output_zero_point: 0, output_signed: 0)
        var out = [UInt8](repeating: 0, count: 4)
        #expect(vt_requant8_valid(&p) == 0 && vt_requant8_run(&p, [1, 2, 3, 4], 4, &out) == -1)
        p = vt_requant8_params(input_zero_point: 0, input_signed: 2, output_zero_point: 0, output_signed: 0)
        #expect(vt_requant8_valid(&p) == 0)
        p = vt_requant8_params(input_zero_point: 0, input_signed: 0, output_zero_point: -1, output_signed: 0)
        #expect(vt_requant8_valid(&p) == 0)
        func options(_ values: [Int32]) -> [UInt8] {
            Array(VT_OPTIONS_RQ_MAGIC.utf8) + values.flatMap { v in withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        }
        var q = vt_requant8_params()
        let good = options([Int32(VT_OPTIONS_RQ_VERSION), 127, 0, -1, 1])
        #expect(
            vt_requant8_decode_options(good, good.count, &q) == 0 && q.output_zero_point == -1 && q.output_signed == 1)
        let wrongVersion = options([Int32(VT_OPTIONS_RQ_VERSION) + 1, 127, 0, -1, 1])
        #expect(vt_requant8_decode_options(wrongVersion, wrongVersion.count, &q) == -1)
        #expect(vt_requant8_decode_options(good, good.count - 1, &q) == -1)
        let outOfRange = options([Int32(VT_OPTIONS_RQ_VERSION), 300, 0, -1, 1])
        #expect(vt_requant8_decode_options(outOfRange, outOfRange.count, &q) == -1)
    }
}
