import CKernels
import Foundation
import LiteRT
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// VisionTasks' hybrid depthwise kernel against LiteRT's built-in one, bit for bit: single-op models
/// (float input, int8 per-channel filter, float bias) of many shapes, strides, dilations, depth
/// multipliers, paddings and activations, on random, one-signed and all-zero inputs.
@Suite(
    "Exact hybrid depthwise kernel", .enabled(if: TestAssets.shouldRun),
    .enabled(
        if: TestAssets.exactKernelsMatchRuntime, "copies of x86-64 XNNPACK's arithmetic; arm64 runs LiteRT's own"))
struct HybridDepthwiseKernelTests {
    struct Case: CustomStringConvertible {
        var h: Int, w: Int, c: Int, dm: Int, kh: Int, kw: Int, sh: Int32, sw: Int32, dh: Int32, dw: Int32, valid: Bool,
            activation: Int8
        var description: String {
            "\(h)x\(w)x\(c) dm\(dm) k\(kh)x\(kw) s\(sh),\(sw) d\(dh),\(dw) \(valid ? "VALID" : "SAME") act\(activation)"
        }
    }

    static let cases: [Case] = [
        Case(h: 20, w: 20, c: 32, dm: 1, kh: 3, kw: 3, sh: 1, sw: 1, dh: 1, dw: 1, valid: false, activation: 3),
        Case(h: 21, w: 17, c: 32, dm: 1, kh: 3, kw: 3, sh: 2, sw: 2, dh: 1, dw: 1, valid: false, activation: 0),
        Case(h: 16, w: 16, c: 7, dm: 1, kh: 3, kw: 3, sh: 1, sw: 1, dh: 1, dw: 1, valid: false, activation: 1),
        Case(h: 12, w: 12, c: 5, dm: 3, kh: 3, kw: 3, sh: 1, sw: 1, dh: 2, dw: 2, valid: false, activation: 2),
        Case(h: 15, w: 13, c: 13, dm: 2, kh: 5, kw: 5, sh: 2, sw: 1, dh: 1, dw: 1, valid: true, activation: 3),
        Case(h: 40, w: 40, c: 128, dm: 1, kh: 3, kw: 3, sh: 1, sw: 1, dh: 1, dw: 1, valid: false, activation: 3),
        Case(h: 9, w: 9, c: 10, dm: 8, kh: 3, kw: 3, sh: 1, sw: 1, dh: 1, dw: 1, valid: true, activation: 0),
        Case(h: 1, w: 1, c: 1, dm: 1, kh: 1, kw: 1, sh: 1, sw: 1, dh: 1, dw: 1, valid: false, activation: 0),
        // depth multiplier 1 takes the paired-tap path: 25 taps (odd) with padding, a channel tail, dilation with
        // stride
        Case(h: 11, w: 9, c: 20, dm: 1, kh: 5, kw: 5, sh: 1, sw: 1, dh: 1, dw: 1, valid: false, activation: 3),
        Case(h: 17, w: 15, c: 48, dm: 1, kh: 3, kw: 3, sh: 2, sw: 2, dh: 2, dw: 2, valid: false, activation: 1),
        // the triple path with 5 kernel rows and stride 2, and with rows of an odd number of values (7 × 5)
        Case(h: 10, w: 8, c: 9, dm: 1, kh: 5, kw: 3, sh: 2, sw: 1, dh: 1, dw: 1, valid: false, activation: 2),
        Case(h: 9, w: 7, c: 5, dm: 1, kh: 3, kw: 3, sh: 1, sw: 1, dh: 1, dw: 1, valid: false, activation: 3),
    ]

    /// A generator with a fixed seed (xorshift64).
    typealias Random = TestRandom

    /// The op's constants: int8 filter [kh][kw][oc], per-channel scales, bias.
    struct Parts {
        var weights: [Int8], scales: [Float], bias: [Float]
    }

    static func parts(_ k: Case, _ r: inout Random) -> Parts {
        let oc = k.c * k.dm
        let weights = (0..<(k.kh * k.kw * oc)).map { _ in Int8(truncatingIfNeeded: Int(r.next() % 255) - 127) }
        let scales = (0..<oc).map { _ in r.float(1e-4...2e-2) }
        return Parts(weights: weights, scales: scales, bias: (0..<oc).map { _ in r.float(-1...1) })
    }

    static func model(_ k: Case, _ r: inout Random) throws -> [UInt8] { try model(k, parts(k, &r)) }

    static func model(_ k: Case, _ parts: Parts) throws -> [UInt8] {
        var b = ModelBuilder(description: "hybrid depthwise")
        let oc = k.c * k.dm
        let input = b.addTensor(Tensor(name: "input", shape: [1, k.h, k.w, k.c], type: .float32))
        let weights = parts.weights.map { UInt8(bitPattern: $0) }
        let scales = parts.scales
        let filter = b.addTensor(
            Tensor(
                name: "filter", shape: [1, k.kh, k.kw, oc], type: .int8, buffer: b.addBuffer(weights),
                quantization: .init(scales: scales, zeroPoints: Array(repeating: 0, count: oc), quantizedDimension: 3)))
        let bias = b.addConstant(name: "bias", shape: [oc], floats: parts.bias)
        let effH = (k.kh - 1) * Int(k.dh) + 1, effW = (k.kw - 1) * Int(k.dw) + 1
        let oh = k.valid ? (k.h - effH + Int(k.sh)) / Int(k.sh) : (k.h + Int(k.sh) - 1) / Int(k.sh)
        let ow = k.valid ? (k.w - effW + Int(k.sw)) / Int(k.sw) : (k.w + Int(k.sw) - 1) / Int(k.sw)
        let output = b.addTensor(Tensor(name: "output", shape: [1, oh, ow, oc], type: .float32))
        let code = b.opcode(OperatorCode(builtinCode: 4))
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: code, inputs: [input, filter, bias], outputs: [output], builtinOptionsType: 2,
                builtinOptions: [
                    0: .int8(k.valid ? 1 : 0), 1: .int32(k.sw), 2: .int32(k.sh), 3: .int32(Int32(k.dm)),
                    4: .int8(k.activation), 5: .int32(k.dw), 6: .int32(k.dh),
                ])
        ]
        b.inputs = [input]
        b.outputs = [output]
        return try b.build()
    }

    @Test("bit-identical to the built-in kernel", arguments: cases)
    func bitIdentical(_ k: Case) throws {
        var r = Random(state: 0x9E37_79B9_7F4A_7C15 &+ UInt64(k.h * 131 + k.c * 7 + k.dm))
        let bytes = try Self.model(k, &r)
        let builtin = try ModelResources(bytes: bytes, kernels: .standard.with(hybridDepthwise: false, conv1x1: false))
        let exact = try ModelResources(bytes: bytes, kernels: .standard.with(hybridDepthwise: true, conv1x1: false))
        #expect(builtin.hybridDepthwiseOps == 0 && exact.hybridDepthwiseOps == 1)
        let n = k.h * k.w * k.c
        for trial in 0..<4 {
            let input: [Float] = (0..<n).map { _ in
                switch trial {
                case 0: return r.float(-3...6)
                case 1: return r.float(0...0.5)
                case 2: return r.float(-2 ... -0.01)
                default: return 0
                }
            }
            let a = try runModel(builtin, input)
            for threads in [1, 2] {  // the kernel splits rows over threads; results must not change
                let b = try runModel(exact, input, threads: threads)
                #expect(a.count == b.count && a.count > 0)
                let differing = zip(a, b).filter { $0.0 != $0.1 }.count
                #expect(differing == 0, "\(k), trial \(trial), \(threads) threads: \(differing) differing bytes")
            }
        }
    }

    @Test(
        """
        FPNLite: its 49 hybrid depthwise ops run on the kernel; all four outputs bit-identical to the built-in \
        kernel's
        """
    )
    func fpnlite() throws {
        let path = TestAssets.model("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite")
        let builtin = try ModelResources(path: path, kernels: .standard.with(hybridDepthwise: false, conv1x1: false))
        let exact = try ModelResources(path: path, kernels: .standard.with(hybridDepthwise: true, conv1x1: false))
        #expect(exact.hybridDepthwiseOps == 49 && builtin.hybridDepthwiseOps == 0)
        // the inexact opt-in wins
        #expect(
            try ModelResources(path: path, optimizeHybridModels: true, kernels: .standard.with(conv1x1: false))
                .customOps.isEmpty)
        var r = Random(state: 42)
        for threads in [1, 2] {
            let input: [Float] = (0..<(320 * 320 * 3)).map { _ in r.float(-1...1) }
            let a = try CompiledModel(model: builtin.runtimeModel, threads: threads)
            let b = try CompiledModel(model: exact.runtimeModel, threads: threads, customOps: exact.customOps)
            #expect(b.customKernelCount == 49)
            let (x, y) = (try a.outputs(for: input), try b.outputs(for: input))
            let differing = x.indices.filter { x[$0] != y[$0] }
            #expect(x.count == 4 && differing.isEmpty, "outputs \(differing), \(threads) threads")
        }
    }

    @Test("the kernel path for this CPU is named")
    func path() {
        #expect(["vnni", "avx512", "avx2", "scalar"].contains(CompiledModel.hybridDepthwiseKernelPath))
    }

    /// Every path this CPU can run; the VNNI kernel in portable C runs everywhere.
    static func runnablePaths() -> [String] {
        var paths = ["scalar", "vnni-portable"]
        switch CompiledModel.hybridDepthwiseKernelPath {
        case "vnni": paths += ["avx2", "avx512", "vnni"]
        case "avx512": paths += ["avx2", "avx512"]
        case "avx2": paths += ["avx2"]
        default: break
        }
        return paths
    }

    @Test(
        """
        every path — scalar, AVX2, AVX-512, AVX-512 VNNI, and the VNNI kernel in portable C — bit-identical to the \
        built-in kernel
        """,
        arguments: cases)
    func paths(_ k: Case) throws {
        var r = Random(state: 0x51ED_2026 &+ UInt64(k.h * 131 + k.c * 7 + k.dm))
        let parts = Self.parts(k, &r)
        let builtin = try ModelResources(
            bytes: try Self.model(k, parts), kernels: .standard.with(hybridDepthwise: false, conv1x1: false))
        let input: [Float] = (0..<(k.h * k.w * k.c)).map { _ in r.float(-3...6) }
        let expected = try runModel(builtin, input)
        var ran: Set<String> = []
        for path in ["scalar", "avx2", "avx512", "vnni", "vnni-portable"] {
            for threads: Int32 in [1, 2] {
                let output: [UInt8]? = parts.weights.withUnsafeBufferPointer { wp in
                    parts.scales.withUnsafeBufferPointer { sp in
                        parts.bias.withUnsafeBufferPointer { bp in
                            var p = vt_hdw_params(
                                kernel_h: Int32(k.kh), kernel_w: Int32(k.kw), in_channels: Int32(k.c),
                                depth_multiplier: Int32(k.dm),
                                stride_h: k.sh, stride_w: k.sw, dilation_h: k.dh, dilation_w: k.dw,
                                padding: k.valid ? 1 : 0,
                                activation: Int32(k.activation), filter: wp.baseAddress, channel_scales: sp.baseAddress,
                                bias: bp.baseAddress)
                            var oh: Int32 = 0, ow: Int32 = 0, ph: Int32 = 0, pw: Int32 = 0
                            guard vt_hdw_output_size(&p, Int32(k.h), Int32(k.w), &oh, &ow, &ph, &pw) == 0 else {
                                return []
                            }
                            var out = [Float](repeating: .nan, count: Int(oh * ow) * k.c * k.dm)
                            var scratch = [UInt8](
                                repeating: 0xA5, count: vt_hdw_scratch_size(&p, Int32(k.h), Int32(k.w), threads))
                            let status = vt_hdw_run_path(
                                &p, kernelPath(path), input, 1, Int32(k.h), Int32(k.w), &out, &scratch, scratch.count,
                                threads, nil)
                            if status == -2 { return nil }  // not on this CPU
                            // Given its input's range (as a 1×1 convolution that makes it takes it), the
                            // same floats; given another range, others (the range given is the one used).
                            let low = input.reduce(Float(0)) { $1 < $0 ? $1 : $0 }
                            let high = input.reduce(Float(0)) { $1 > $0 ? $1 : $0 }
                            for (range, same) in [([low, high], true), ([low * 2 - 1, high * 2 + 1], false)] {
                                var known = out.map { _ in Float.nan }
                                let s = vt_hdw_run_ranged(
                                    &p, kernelPath(path), input, 1, Int32(k.h), Int32(k.w), &known, &scratch,
                                    scratch.count,
                                    threads, nil, range)
                                #expect(s == 0, "\(k), \(path), range \(range)")
                                let equal = known.map(\.bitPattern) == out.map(\.bitPattern)
                                #expect(equal == same, "\(k), \(path), \(threads) threads, range \(range)")
                            }
                            return status == 0 ? out.withUnsafeBytes { Array($0) } : []
                        }
                    }
                }
                guard let output else { continue }
                ran.insert(path)
                #expect(output.count == expected.count && output == expected, "\(k), \(path), \(threads) threads")
            }
        }
        #expect(ran == Set(Self.runnablePaths()), "\(k): ran \(ran.sorted())")
    }
}
