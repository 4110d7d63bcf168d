import CKernels
import Foundation
import LiteRT
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// VisionTasks' 1×1 convolution kernel against XNNPACK's (LiteRT's path for these ops), bit for bit:
/// uint8 and hybrid single-op models of many channel counts, zero points, scales and activations, on
/// random, extreme and constant inputs, with 1 and 2 threads; SSD MobileNet v1 (uint8) and SSD
/// MobileNet v2 FPNLite (hybrid), whose 1×1 convolutions move onto the kernel, with outputs
/// identical to LiteRT's. The 8-bit kinds run on both architectures, each against its own LiteRT (on
/// aarch64 under qemu: XNNPACK's aarch64 arithmetic); the hybrid kind reproduces x86-64's only.
@Suite("Exact 1×1 convolution kernel", .enabled(if: TestAssets.shouldRun))
struct Conv1x1KernelTests {
    struct Case: CustomStringConvertible {
        var h: Int, w: Int, k: Int, n: Int, izp: Int64, fzp: Int64, ozp: Int64, iscale: Float, fscale: Float,
            oscale: Float, activation: Int8, bias: Bool
        /// A spatial convolution's window (1×1, stride 1 by default): kernel, strides, dilations, VALID.
        var kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, valid = false
        /// int8 (QS8 × QC8W: zero points −128…127, the filter's 0) with a scale per output channel.
        var signed = false
        var spatial: Bool { kh != 1 || kw != 1 || sh != 1 || sw != 1 }
        var description: String {
            let window = spatial ? " \(kh)x\(kw)/\(sh),\(sw) d\(dh),\(dw)\(valid ? " VALID" : " SAME")" : ""
            return "\(signed ? "int8 " : "")\(h)x\(w)x\(k)→\(n)\(window) zp \(izp)/\(fzp)/\(ozp) act\(activation)"
                + (bias ? "" : " no bias")
        }
        /// The filter's scales: one, or (int8) one per output channel, spread over 0.25…4 × `fscale` so
        /// that the channels' requantization scales differ in every bit.
        var filterScales: [Float] {
            signed ? (0..<n).map { fscale * (0.25 + Float(($0 * 7_919) % 1_000) / 266) } : [fscale]
        }
        /// The input's and output's tensor type.
        var type: TensorType { signed ? .int8 : .uint8 }
        /// The output's height and width (TensorFlow's SAME or VALID).
        var outputSize: (h: Int, w: Int) {
            let eh = (kh - 1) * dh + 1, ew = (kw - 1) * dw + 1
            return valid ? ((h - eh) / sh + 1, (w - ew) / sw + 1) : ((h + sh - 1) / sh, (w + sw - 1) / sw)
        }
    }

    static let cases: [Case] = [
        Case(
            h: 19, w: 19, k: 384, n: 384, izp: 128, fzp: 122, ozp: 0, iscale: 0.0235, fscale: 0.0055, oscale: 0.0235,
            activation: 3, bias: true),
        Case(
            h: 75, w: 75, k: 24, n: 48, izp: 0, fzp: 117, ozp: 0, iscale: 0.0235, fscale: 0.0158, oscale: 0.0235,
            activation: 3, bias: true),
        Case(
            h: 10, w: 10, k: 768, n: 546, izp: 0, fzp: 130, ozp: 201, iscale: 0.0235, fscale: 0.0019, oscale: 0.11,
            activation: 0, bias: true),
        Case(
            h: 5, w: 7, k: 13, n: 7, izp: 37, fzp: 255, ozp: 90, iscale: 0.05, fscale: 0.02, oscale: 0.013,
            activation: 1, bias: true),
        Case(
            h: 3, w: 3, k: 96, n: 17, izp: 255, fzp: 0, ozp: 128, iscale: 0.01, fscale: 0.03, oscale: 0.02,
            activation: 2, bias: false),
        Case(
            h: 1, w: 1, k: 1, n: 3, izp: 10, fzp: 20, ozp: 30, iscale: 0.5, fscale: 0.25, oscale: 0.125, activation: 0,
            bias: true),
        Case(
            h: 2, w: 9, k: 33, n: 31, izp: 127, fzp: 1, ozp: 5, iscale: 0.5, fscale: 0.9, oscale: 7.3, activation: 3,
            bias: true),
        // A scale whose mantissa rounds to 2^15 in 15 bits (2^-10 · (1 − 2^-17)): where XNNPACK's versions of
        // "rndnu16" differ (a Cortex-A53's or A55's uint8 GEMM).
        Case(
            h: 4, w: 5, k: 32, n: 16, izp: 5, fzp: 9, ozp: 100, iscale: 1, fscale: Float(bitPattern: 0x3A7F_FF80),
            oscale: 1, activation: 0, bias: true),
        // Spatial convolutions (im2col + the same GEMM): SSD v1's first layer's shape (3×3 stride 2 SAME
        // on 3 channels, odd and even sizes), its extra layers' (3×3 stride 2 on many channels), VALID,
        // dilations, a 1×1 stride 2, a wide kernel larger than the input.
        Case(
            h: 31, w: 33, k: 3, n: 32, izp: 128, fzp: 113, ozp: 0, iscale: 0.0078125, fscale: 0.034, oscale: 0.0235,
            activation: 3, bias: true, kh: 3, kw: 3, sh: 2, sw: 2),
        Case(
            h: 30, w: 28, k: 3, n: 32, izp: 128, fzp: 113, ozp: 0, iscale: 0.0078125, fscale: 0.034, oscale: 0.0235,
            activation: 3, bias: true, kh: 3, kw: 3, sh: 2, sw: 2),
        Case(
            h: 10, w: 10, k: 128, n: 256, izp: 0, fzp: 140, ozp: 0, iscale: 0.0235, fscale: 0.004, oscale: 0.0235,
            activation: 3, bias: true, kh: 3, kw: 3, sh: 2, sw: 2),
        // Enough output rows for several chunks of im2col rows (about 48 KB each), the last one shorter.
        Case(
            h: 201, w: 64, k: 3, n: 24, izp: 128, fzp: 113, ozp: 0, iscale: 0.0078125, fscale: 0.034, oscale: 0.0235,
            activation: 3, bias: true, kh: 3, kw: 3, sh: 2, sw: 2),
        Case(
            h: 9, w: 12, k: 5, n: 9, izp: 17, fzp: 200, ozp: 77, iscale: 0.04, fscale: 0.02, oscale: 0.05,
            activation: 0, bias: true, kh: 3, kw: 2, valid: true),
        Case(
            h: 13, w: 11, k: 7, n: 19, izp: 250, fzp: 3, ozp: 128, iscale: 0.02, fscale: 0.05, oscale: 0.09,
            activation: 1, bias: false, kh: 3, kw: 3, dh: 2, dw: 3),
        Case(
            h: 8, w: 9, k: 24, n: 16, izp: 90, fzp: 128, ozp: 3, iscale: 0.03, fscale: 0.01, oscale: 0.02,
            activation: 2, bias: true, sh: 2, sw: 2),
        Case(
            h: 3, w: 4, k: 2, n: 5, izp: 1, fzp: 254, ozp: 200, iscale: 0.3, fscale: 0.2, oscale: 0.7, activation: 0,
            bias: true, kh: 5, kw: 7, sh: 1, sw: 3),
        // int8 with per-channel filter scales (TF2's post-training quantization, XNNPACK's QS8 × QC8W):
        // MobileNet v2's expansions and projections, its first 3×3 stride-2 layer, every activation,
        // zero points at both ends, channel tails, a 1×1 K of 1, dilations and VALID.
        Case(
            h: 28, w: 28, k: 32, n: 192, izp: -128, fzp: 0, ozp: -128, iscale: 0.0235, fscale: 0.004, oscale: 0.0235,
            activation: 3, bias: true, signed: true),
        Case(
            h: 14, w: 14, k: 384, n: 64, izp: -3, fzp: 0, ozp: 5, iscale: 0.02, fscale: 0.003, oscale: 0.09,
            activation: 0, bias: true, signed: true),
        Case(
            h: 7, w: 9, k: 13, n: 23, izp: 127, fzp: 0, ozp: 127, iscale: 0.05, fscale: 0.02, oscale: 0.013,
            activation: 1, bias: true, signed: true),
        Case(
            h: 3, w: 5, k: 1, n: 3, izp: 0, fzp: 0, ozp: -20, iscale: 0.5, fscale: 0.25, oscale: 0.125,
            activation: 2, bias: true, signed: true),
        Case(
            h: 31, w: 33, k: 3, n: 32, izp: -1, fzp: 0, ozp: -128, iscale: 0.0078, fscale: 0.03, oscale: 0.0235,
            activation: 3, bias: true, kh: 3, kw: 3, sh: 2, sw: 2, signed: true),
        Case(
            h: 13, w: 11, k: 7, n: 19, izp: 100, fzp: 0, ozp: -7, iscale: 0.02, fscale: 0.05, oscale: 0.09,
            activation: 0, bias: true, kh: 3, kw: 3, dh: 2, dw: 3, signed: true),
        Case(
            h: 9, w: 12, k: 5, n: 17, izp: -60, fzp: 0, ozp: 30, iscale: 0.04, fscale: 0.02, oscale: 0.05,
            activation: 1, bias: true, kh: 3, kw: 2, valid: true, signed: true),
    ]

    typealias Random = TestRandom

    static func model(_ c: Case, _ r: inout Random) throws -> [UInt8] {
        var b = ModelBuilder(description: "uint8 1x1 conv")
        func q(_ scale: Float, _ zp: Int64) -> Tensor.QuantizationParameters {
            .init(scales: [scale], zeroPoints: [zp])
        }
        let input = b.addTensor(
            Tensor(name: "input", shape: [1, c.h, c.w, c.k], type: c.type, quantization: q(c.iscale, c.izp)))
        let weights = (0..<(c.n * c.kh * c.kw * c.k)).map { _ in UInt8(truncatingIfNeeded: r.next()) }
        let scales = c.filterScales
        let filter = b.addTensor(
            Tensor(
                name: "filter", shape: [c.n, c.kh, c.kw, c.k], type: c.type, buffer: b.addBuffer(weights),
                quantization: .init(scales: scales, zeroPoints: scales.map { _ in c.fzp })))
        let values = (0..<c.n).map { _ in c.bias ? Int32(truncatingIfNeeded: Int(r.next() % 40_001) - 20_000) : 0 }
        let bytes = values.flatMap { v in withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        let bias = b.addTensor(
            Tensor(
                name: "bias", shape: [c.n], type: .int32, buffer: b.addBuffer(bytes),
                quantization: .init(scales: scales.map { c.iscale * $0 }, zeroPoints: scales.map { _ in 0 })))
        let inputs = [input, filter, bias]
        let output = b.addTensor(
            Tensor(
                name: "output", shape: [1, c.outputSize.h, c.outputSize.w, c.n], type: c.type,
                quantization: q(c.oscale, c.ozp)))
        let code = b.opcode(OperatorCode(builtinCode: 3))
        // Conv2DOptions: padding, stride_w, stride_h, activation, dilation_w, dilation_h.
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: code, inputs: inputs, outputs: [output], builtinOptionsType: 1,
                builtinOptions: [
                    0: .int8(c.valid ? 1 : 0), 1: .int32(Int32(c.sw)), 2: .int32(Int32(c.sh)), 3: .int8(c.activation),
                    4: .int32(Int32(c.dw)), 5: .int32(Int32(c.dh)),
                ])
        ]
        b.inputs = [input]
        b.outputs = [output]
        return try b.build()
    }

    @Test("bit-identical to XNNPACK's kernel", arguments: cases)
    func bitIdentical(_ c: Case) throws {
        var r = Random(state: 0x2545_F491_4F6C_DD1D &+ UInt64(c.k * 977 + c.n))
        let bytes = try Self.model(c, &r)
        let builtin = try ModelResources(bytes: bytes, kernels: .builtin)
        let ours = try ModelResources(bytes: bytes, kernels: .builtin.with(conv1x1: true, int8SpatialConv: true))
        let kinds = [ours.quantizedConvOps, ours.quantizedSpatialConvOps]
        // int8 spatial convolutions stay XNNPACK's unless asked for.
        let plain = try ModelResources(bytes: bytes, kernels: .builtin.with(conv1x1: true, int8SpatialConv: false))
        #expect(plain.quantizedSpatialConvOps == (c.spatial && !c.signed ? 1 : 0))
        let expected = c.spatial ? [0, 1] : [1, 0]
        #expect(builtin.customOps.isEmpty)
        #expect(kinds == expected)
        let count = c.h * c.w * c.k
        for trial in 0..<4 {
            let input: [UInt8] = (0..<count).map { i in
                switch trial {
                case 0: return UInt8(truncatingIfNeeded: r.next())
                case 1: return i % 2 == 0 ? 255 : 0
                case 2: return UInt8(truncatingIfNeeded: r.next() % 8) &+ UInt8(truncatingIfNeeded: c.izp) &- 4
                default: return UInt8(truncatingIfNeeded: c.izp)
                }
            }
            let a = try runModel(builtin, input)
            for threads in [1, 2] {  // the kernel splits pixels over threads; results must not change
                let b = try runModel(ours, input, threads: threads)
                #expect(a.count == b.count && a.count == c.outputSize.h * c.outputSize.w * c.n)
                let differing = zip(a, b).filter { $0.0 != $0.1 }.count
                #expect(differing == 0, "\(c), trial \(trial), \(threads) threads: \(differing) differing bytes")
            }
        }
    }

    @Test("SSD MobileNet v1: its 1×1 and 3×3 convolutions run on the kernel; all four outputs identical to LiteRT's")
    func ssdMobileNetV1() throws {
        let path = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
        let builtin = try ModelResources(path: path, kernels: .builtin)
        let ours = try ModelResources(path: path, kernels: .builtin.with(conv1x1: true))
        #expect(builtin.customOps.isEmpty && ours.quantizedConvOps == 29 && ours.hybridDepthwiseOps == 0)
        // The first 3×3 stride-2 convolution and the four 3×3 stride-2 extra layers.
        #expect(ours.quantizedSpatialConvOps == 5)
        var r = Random(state: 7)
        for threads in [1, 2] {
            for trial in 0..<3 {
                let input: [UInt8] = (0..<(300 * 300 * 3)).map { (i: Int) -> UInt8 in
                    if trial == 0 { return UInt8(truncatingIfNeeded: r.next()) }
                    let column: Int = i / 3 % 300
                    return UInt8((column + trial * 40) % 256)
                }
                let a = try CompiledModel(model: builtin.runtimeModel, threads: threads)
                let b = try CompiledModel(model: ours.runtimeModel, threads: threads, customOps: ours.customOps)
                #expect(b.customKernelCount == 34)
                let (x, y) = (try a.outputs(for: input), try b.outputs(for: input))
                let differing = x.indices.filter { x[$0] != y[$0] }
                #expect(x.count == 4 && differing.isEmpty, "outputs \(differing), \(threads) threads, trial \(trial)")
            }
        }
    }

    @Test(
        "uint8 and int8 classifiers: their 1×1 and first 3×3 convolutions on the kernel; scores identical to LiteRT's",
        arguments: [
            "mobilenet_v2_1.0_224_quant.tflite", "mobilenet_v1_0.25_128_quant.tflite",
            "mobilenet_v2_1.0_224_inat_bird_quant.tflite",
            // int8 with per-channel filter scales (TF2's post-training quantization): XNNPACK runs its 1×1
            // convolutions as QS8 × QC8W fully-connected GEMMs, its first as an IGEMM.
            "tf2_mobilenet_v2_1.0_224_ptq.tflite",
        ])
    func classifiers(name: String) throws {
        let path = TestAssets.model(name)
        let builtin = try ModelResources(path: path, kernels: .builtin)
        let ours = try ModelResources(path: path, kernels: .builtin.with(conv1x1: true, int8SpatialConv: true))
        #expect(builtin.customOps.isEmpty && ours.quantizedConvOps > 10 && ours.quantizedSpatialConvOps == 1)
        let plain = try ModelResources(path: path, kernels: .builtin.with(conv1x1: true, int8SpatialConv: false))
        #expect(plain.quantizedSpatialConvOps == (name.hasPrefix("tf2") ? 0 : 1))
        let a = try CompiledModel(model: builtin.runtimeModel, threads: 1)
        let count = a.inputs[0].byteCount
        var r = Random(state: 13)
        for threads in [1, 2] {
            let b = try CompiledModel(model: ours.runtimeModel, threads: threads, customOps: ours.customOps)
            for trial in 0..<2 {
                let input: [UInt8] = (0..<count).map { i in
                    trial == 0 ? UInt8(truncatingIfNeeded: r.next()) : UInt8(truncatingIfNeeded: i / 3 + i % 3 * 85)
                }
                #expect(
                    try a.outputs(for: input) == b.outputs(for: input), "\(name), \(threads) threads, trial \(trial)")
            }
        }
    }

    @Test(
        "YOLO int8 fixtures: their int8 1×1 (and, when asked, spatial) convolutions on the kernel; outputs identical",
        arguments: ["yolov8t_int8.tflite", "yolov8t_int8io.tflite"])
    func yoloInt8(name: String) throws {
        let path = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/yolo/\(name)").path
        let builtin = try ModelResources(path: path, kernels: .builtin)
        let a = try CompiledModel(model: builtin.runtimeModel, threads: 1)
        let input = try #require(a.inputs.first)
        var r = Random(state: 29)
        // Pictures as the task gives them: floats in 0…1, or int8 bytes.
        let inputs: [[UInt8]] = (0..<2).map { trial in
            if input.elementType == .float32 {
                let floats = (0..<(input.byteCount / 4)).map { i in
                    trial == 0 ? Float(r.next() % 256) / 255 : Float(i % 97) / 96
                }
                return floats.withUnsafeBytes { Array($0) }
            }
            return (0..<input.byteCount).map { i in
                trial == 0 ? UInt8(truncatingIfNeeded: r.next()) : UInt8(truncatingIfNeeded: i % 97 &* 3)
            }
        }
        for spatial in [false, true] {
            let ours = try ModelResources(
                path: path, kernels: .builtin.with(conv1x1: true, int8SpatialConv: spatial))
            #expect(builtin.customOps.isEmpty && ours.quantizedConvOps > 5)
            #expect(spatial ? ours.quantizedSpatialConvOps > 5 : ours.quantizedSpatialConvOps == 0)
            for threads in [1, 2] {
                let b = try CompiledModel(model: ours.runtimeModel, threads: threads, customOps: ours.customOps)
                for (trial, bytes) in inputs.enumerated() {
                    let same = try a.outputs(for: bytes) == b.outputs(for: bytes)
                    #expect(same, "\(name), spatial \(spatial), \(threads) threads, trial \(trial)")
                }
            }
        }
    }

    /// The paths this CPU can run for ops of its own arithmetic: on x86-64 scalar, AVX2, VNNI and
    /// "vnni-portable" (the VNNI kernel's source in portable C, which runs everywhere); on aarch64 scalar,
    /// "neon" and, with the dot-product extension, "neon-dot".
    static var paths: [String] {
        #if arch(x86_64)
            var paths = ["scalar", "avx2", "vnni", "vnni-portable"]
            if CompiledModel.conv1x1KernelPath == "scalar" { paths.removeAll { $0 == "avx2" || $0 == "vnni" } }
            if CompiledModel.conv1x1KernelPath == "avx2" { paths.removeAll { $0 == "vnni" } }
            return paths
        #else
            return CompiledModel.conv1x1KernelPath == "neon-dot" ? ["scalar", "neon", "neon-dot"] : ["scalar", "neon"]
        #endif
    }

    /// The paths this CPU can run for ops of aarch64's arithmetic: scalar, and the NEON kernels (plain, and
    /// with the dot product) — with their instructions on aarch64 CPUs that have them, in portable C elsewhere.
    static var aarch64Paths: [String] {
        #if arch(arm64)
            return paths
        #else
            return ["scalar", "neon-dot-portable", "neon-portable"]
        #endif
    }

    /// The 8-bit op of `c` ([n][k] `weights`, `bias`, `c.filterScales`) computing `arithmetic`'s arithmetic.
    static func op(
        _ c: Case, weights: [UInt8], bias: [Int32], arithmetic: vt_arithmetic = VT_ARITHMETIC_NATIVE
    ) -> OpaquePointer? {
        let scales = c.filterScales
        return weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                scales.withUnsafeBufferPointer { fs in
                    var p = vt_qconv_params(
                        in_channels: Int32(c.k), out_channels: Int32(c.n), activation: Int32(c.activation),
                        input_zero_point: Int32(c.izp), filter_zero_point: Int32(c.fzp),
                        output_zero_point: Int32(c.ozp),
                        input_scale: c.iscale, filter_scale: c.fscale, output_scale: c.oscale,
                        filter: w.baseAddress, bias: b.baseAddress, is_signed: c.signed ? 1 : 0,
                        filter_scales: c.signed ? fs.baseAddress : nil)
                    return vt_qconv_create_for(&p, arithmetic)
                }
            }
        }
    }

    /// Runs `op` on every path (1 and 2 threads) and returns each path's output. With `ranged` (the
    /// hybrid kind) each run is repeated taking the outputs' range, which must leave them as they are
    /// and be the range a hybrid depthwise op's quantizer takes of them.
    static func allPaths(
        _ op: OpaquePointer, input: UnsafeRawPointer, pixels: Int64, outputBytes: Int, ranged: Bool = false,
        paths: [String] = paths
    ) -> [String: [UInt8]] {
        var outputs: [String: [UInt8]] = [:]
        var scratch = [UInt8](repeating: 0, count: vt_conv1x1_scratch_size(op, 2))
        for path in paths {
            for threads: Int32 in [1, 2] {
                var out = [UInt8](repeating: 0xA5, count: outputBytes)
                let status = vt_conv1x1_run_path(
                    op, kernelPath(path), input, pixels, &out, &scratch, scratch.count, threads, nil)
                #expect(status == 0, "\(path), \(threads) threads")
                outputs["\(path)/\(threads)"] = out
                var again = [UInt8](repeating: 0x5A, count: outputBytes)
                var range: [Float] = [.nan, .nan]
                let rangedStatus = vt_conv1x1_run_ranged(
                    op, kernelPath(path), input, pixels, &again, &scratch, scratch.count, threads, nil, &range)
                guard ranged else {
                    #expect(rangedStatus == -1, "the uint8 kind has no range to give")
                    continue
                }
                let floats = out.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                let low = floats.reduce(Float(0)) { $1 < $0 ? $1 : $0 },
                    high = floats.reduce(Float(0)) { $1 > $0 ? $1 : $0 }
                let same = again == out  // (a Bool: a failure does not print megabytes of operands)
                #expect(rangedStatus == 0 && same, "\(path), \(threads) threads, with its range")
                #expect(
                    range.map(\.bitPattern) == [low.bitPattern, high.bitPattern],
                    "\(path), \(threads) threads: range \(range), expected \([low, high])")
            }
        }
        return outputs
    }

    @Test(
        "uint8 and int8: every path here (scalar, AVX2, AVX-512 VNNI, VNNI in portable C; NEON) gives the same bytes"
    )
    func pathsUInt8() throws {
        #if arch(arm64)
            // The dot-product path where the CPU has udot (HWCAP_ASIMDDP), the plain NEON one elsewhere.
            let expected = vt_cpu_features().pointee.asimddp != 0 ? "neon-dot" : "neon"
            #expect(CompiledModel.conv1x1KernelPath == expected)
        #else
            #expect(["vnni", "avx2", "scalar"].contains(CompiledModel.conv1x1KernelPath))
        #endif
        var r = Random(state: 99)
        for c in Self.cases + [
            Case(
                h: 1, w: 13, k: 2, n: 16, izp: 200, fzp: 3, ozp: 7, iscale: 0.3, fscale: 0.4, oscale: 0.2,
                activation: 0, bias: true),
            Case(
                h: 5, w: 5, k: 4, n: 1, izp: 0, fzp: 255, ozp: 0, iscale: 0.1, fscale: 0.1, oscale: 0.1, activation: 3,
                bias: true),
        ] {
            let weights = (0..<(c.n * c.k)).map { _ in UInt8(truncatingIfNeeded: r.next()) }
            let bias = (0..<c.n).map { _ in Int32(truncatingIfNeeded: Int(r.next() % 40_001) - 20_000) }
            let input = (0..<(c.h * c.w * c.k)).map { _ in UInt8(truncatingIfNeeded: r.next()) }
            let kernel = try #require(Self.op(c, weights: weights, bias: bias))
            defer { vt_conv1x1_free(kernel) }
            let outputs = input.withUnsafeBytes {
                Self.allPaths(kernel, input: $0.baseAddress!, pixels: Int64(c.h * c.w), outputBytes: c.h * c.w * c.n)
            }
            let reference = try #require(outputs["scalar/1"])
            for (path, out) in outputs.sorted(by: { $0.key < $1.key }) {
                let same = out == reference
                #expect(same, "\(c) on \(path)")
            }
            #expect(outputs.count == Self.paths.count * 2)
        }
    }

    @Test(
        "hybrid: every path gives the same floats, bit for bit (extreme and constant pixels included)",
        .enabled(if: CompiledModel.hybridConvKernelExact, "reproduces x86-64's arithmetic only"))
    func pathsHybrid() throws {
        var r = Random(state: 123)
        let shapes: [(k: Int, n: Int, pixels: Int)] = [
            (1, 3, 7), (3, 16, 13), (5, 17, 25), (64, 40, 100), (130, 31, 37), (256, 96, 97), (24, 144, 300),
            (3, 256, 4_100),  // outputs above 4 MB: stored past the caches
        ]
        for (k, n, pixels) in shapes {
            for activation: Int32 in [0, 1, 3] {
                let weights = (0..<(n * k)).map { _ in Int8(truncatingIfNeeded: r.next()) }
                let scales = (0..<n).map { _ in r.float(0.001...0.05) }
                let bias = (0..<n).map { _ in r.float(-2...2) }
                var input = (0..<(pixels * k)).map { _ in r.float(-6...6) }
                for c in 0..<k { input[c] = 0 }  // a constant pixel
                if pixels > 2 { for c in 0..<k { input[k + c] = c % 2 == 0 ? 3.0e4 : -1.0e-30 } }  // an extreme one
                let op: OpaquePointer? = weights.withUnsafeBufferPointer { w in
                    scales.withUnsafeBufferPointer { s in
                        bias.withUnsafeBufferPointer { b in
                            var p = vt_hconv_params(
                                in_channels: Int32(k), out_channels: Int32(n), activation: activation,
                                filter: w.baseAddress,
                                channel_scales: s.baseAddress, bias: b.baseAddress)
                            return vt_hconv_create(&p)
                        }
                    }
                }
                let kernel = try #require(op)
                defer { vt_conv1x1_free(kernel) }
                let outputs = input.withUnsafeBytes {
                    Self.allPaths(
                        kernel, input: $0.baseAddress!, pixels: Int64(pixels), outputBytes: pixels * n * 4, ranged: true
                    )
                }
                let reference = try #require(outputs["scalar/1"])
                for (path, out) in outputs.sorted(by: { $0.key < $1.key }) {
                    let same = out == reference  // (a Bool: a failure does not print megabytes of operands)
                    #expect(same, "hybrid \(k)→\(n) act\(activation) on \(path)")
                }
            }
        }
    }

    @Test(
        """
        invalid parameters are refused: zero points out of range, a requantization scale ≥ 256, bad scales or \
        activations
        """
    )
    func refused() {
        let w = [UInt8](repeating: 1, count: 4), b = [Int32](repeating: 0, count: 2)
        func make(_ edit: (inout vt_qconv_params) -> Void) -> Bool {
            w.withUnsafeBufferPointer { wp in
                b.withUnsafeBufferPointer { bp in
                    var p = vt_qconv_params(
                        in_channels: 2, out_channels: 2, activation: 0, input_zero_point: 0, filter_zero_point: 0,
                        output_zero_point: 0, input_scale: 1, filter_scale: 1, output_scale: 1,
                        filter: wp.baseAddress, bias: bp.baseAddress, is_signed: 0, filter_scales: nil)
                    edit(&p)
                    let op = vt_qconv_create(&p)
                    defer { vt_conv1x1_free(op) }
                    return op != nil
                }
            }
        }
        #expect(make { _ in })
        #expect(!make { $0.input_zero_point = 256 })
        #expect(!make { $0.filter_zero_point = -1 })
        #expect(!make { $0.output_scale = 1.0 / 256 })  // requantization scale 256
        #expect(!make { $0.input_scale = .nan })
        #expect(!make { $0.activation = 4 })
        #expect(
            make {
                $0.activation = 1; $0.output_zero_point = 255
            })  // [255, 255]: allowed
        // int8: zero points −128…127, the filter's 0; per-channel scales only for int8, each giving a
        // requantization scale below 256.
        #expect(
            make {
                $0.is_signed = 1; $0.input_zero_point = -128; $0.output_zero_point = 127
            })
        #expect(
            !make {
                $0.is_signed = 1; $0.input_zero_point = 128
            })
        #expect(
            !make {
                $0.is_signed = 1; $0.filter_zero_point = 1
            })
        let good: [Float] = [0.5, 2], bad: [Float] = [0.5, 256]
        good.withUnsafeBufferPointer { g in
            #expect(
                make {
                    $0.is_signed = 1; $0.filter_scales = g.baseAddress
                })
            #expect(!make { $0.filter_scales = g.baseAddress })  // a uint8 op has one scale
        }
        bad.withUnsafeBufferPointer { b in
            #expect(
                !make {
                    $0.is_signed = 1; $0.filter_scales = b.baseAddress
                })
        }
    }
}

extension Conv1x1KernelTests {
    @Test("ops XNNPACK leaves to LiteRT's own kernel (a bias without the product scale) are not rewritten")
    func biasScale() throws {
        var r = Random(state: 5)
        var b = ModelBuilder(description: "uint8 1x1 conv, odd bias scale")
        func q(_ scale: Float, _ zp: Int64) -> Tensor.QuantizationParameters {
            .init(scales: [scale], zeroPoints: [zp])
        }
        let input = b.addTensor(Tensor(name: "input", shape: [1, 4, 4, 8], type: .uint8, quantization: q(0.02, 128)))
        let filter = b.addTensor(
            Tensor(
                name: "filter", shape: [8, 1, 1, 8], type: .uint8,
                buffer: b.addBuffer((0..<64).map { _ in UInt8(truncatingIfNeeded: r.next()) }),
                quantization: q(0.01, 120)))
        let bias = b.addTensor(
            Tensor(
                name: "bias", shape: [8], type: .int32, buffer: b.addBuffer([UInt8](repeating: 1, count: 32)),
                quantization: q(0.0002 * 1.01, 0)))
        let output = b.addTensor(Tensor(name: "output", shape: [1, 4, 4, 8], type: .uint8, quantization: q(0.05, 10)))
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: b.opcode(OperatorCode(builtinCode: 3)), inputs: [input, filter, bias], outputs: [output],
                builtinOptionsType: 1, builtinOptions: [1: .int32(1), 2: .int32(1)])
        ]
        b.inputs = [input]
        b.outputs = [output]
        #expect(try ModelResources(bytes: b.build(), kernels: .standard.with(conv1x1: true)).customOps.isEmpty)
    }
}

extension Conv1x1KernelTests {
    struct HybridCase: CustomStringConvertible {
        var h: Int, w: Int, k: Int, n: Int, activation: Int8, perTensor: Bool
        var description: String { "hybrid \(h)x\(w)x\(k)→\(n) act\(activation)\(perTensor ? " per-tensor" : "")" }
    }

    static let hybridCases: [HybridCase] = [
        HybridCase(h: 20, w: 20, k: 96, n: 24, activation: 0, perTensor: false),
        HybridCase(h: 10, w: 10, k: 160, n: 960, activation: 3, perTensor: false),
        HybridCase(h: 7, w: 5, k: 13, n: 17, activation: 1, perTensor: true),
        HybridCase(h: 3, w: 3, k: 33, n: 7, activation: 2, perTensor: false),
        HybridCase(h: 1, w: 1, k: 2, n: 1, activation: 0, perTensor: false),
    ]

    static func hybridModel(_ c: HybridCase, _ r: inout Random) throws -> [UInt8] {
        var b = ModelBuilder(description: "hybrid 1x1 conv")
        let input = b.addTensor(Tensor(name: "input", shape: [1, c.h, c.w, c.k], type: .float32))
        let weights = (0..<(c.n * c.k)).map { _ in
            UInt8(bitPattern: Int8(truncatingIfNeeded: Int(r.next() % 255) - 127))
        }
        let scales = c.perTensor ? [r.float(1e-3...2e-2)] : (0..<c.n).map { _ in r.float(1e-4...2e-2) }
        let filter = b.addTensor(
            Tensor(
                name: "filter", shape: [c.n, 1, 1, c.k], type: .int8, buffer: b.addBuffer(weights),
                quantization: .init(
                    scales: scales, zeroPoints: Array(repeating: 0, count: scales.count), quantizedDimension: 0)))
        let bias = b.addConstant(name: "bias", shape: [c.n], floats: (0..<c.n).map { _ in r.float(-1...1) })
        let output = b.addTensor(Tensor(name: "output", shape: [1, c.h, c.w, c.n], type: .float32))
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: b.opcode(OperatorCode(builtinCode: 3)), inputs: [input, filter, bias], outputs: [output],
                builtinOptionsType: 1,
                builtinOptions: [0: .int8(0), 1: .int32(1), 2: .int32(1), 3: .int8(c.activation)])
        ]
        b.inputs = [input]
        b.outputs = [output]
        return try b.build()
    }

    @Test(
        "hybrid: bit-identical to XNNPACK's dynamically quantized kernel",
        .enabled(if: CompiledModel.hybridConvKernelExact, "reproduces x86-64's arithmetic only"), arguments: hybridCases
    )
    func hybridBitIdentical(_ c: HybridCase) throws {
        var r = Random(state: 0x5851_F42D_4C95_7F2D &+ UInt64(c.k * 31 + c.n))
        let bytes = try Self.hybridModel(c, &r)
        let builtin = try ModelResources(bytes: bytes, kernels: .standard.with(hybridDepthwise: false, conv1x1: false))
        let ours = try ModelResources(
            bytes: bytes, kernels: .standard.with(hybridDepthwise: true, conv1x1: true, hybridConv: true))
        #expect(builtin.customOps.isEmpty && ours.hybridConvOps == 1)
        let count = c.h * c.w * c.k
        for trial in 0..<5 {
            let input: [Float] = (0..<count).map { i in
                switch trial {
                case 0: return r.float(-3...6)
                case 1: return r.float(0...0.5)
                case 2: return r.float(-2 ... -0.01)
                case 3: return i % 7 == 0 ? r.float(-1e4...1e4) : r.float(-1e-3...1e-3)
                default: return 0
                }
            }
            let a = try runModel(builtin, input)
            for threads in [1, 2] {
                let b = try runModel(ours, input, threads: threads)
                #expect(a.count == b.count && a.count == c.h * c.w * c.n * 4)
                let differing = stride(from: 0, to: min(a.count, b.count), by: 4).filter {
                    a[$0..<$0 + 4] != b[$0..<$0 + 4]
                }.count
                #expect(differing == 0, "\(c), trial \(trial), \(threads) threads: \(differing) differing values")
            }
        }
    }

    @Test(
        """
        FPNLite: its hybrid 1×1 convolutions and depthwise ops run on our kernels; all four outputs identical to \
        LiteRT's
        """,
        .enabled(if: CompiledModel.hybridConvKernelExact, "reproduces x86-64's arithmetic only")
    )
    func fpnlite() throws {
        let path = TestAssets.model("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite")
        let builtin = try ModelResources(path: path, kernels: .standard.with(hybridDepthwise: false, conv1x1: false))
        let ours = try ModelResources(
            path: path, kernels: .standard.with(hybridDepthwise: true, conv1x1: true, hybridConv: true))
        #expect(builtin.customOps.isEmpty && ours.hybridDepthwiseOps == 49 && ours.hybridConvOps > 40)
        // The box and class heads (5 convolutions each, reshaped, concatenated) are two groups.
        #expect(ModelFile.CustomKernels.hybridConvGroups.count(in: ours.customOps) == 2)
        // Its first expansion (160×160, 16 → 96 channels) and the float depthwise op reading it are one op
        // where XNNPACK's float depthwise kernels use fused multiply-adds (x86-64 with FMA3 or AVX-512F).
        let pairs = CompiledModel.convDepthwiseFusionExact ? 1 : 0
        #expect(ModelFile.CustomKernels.hybridConvDepthwise.count(in: ours.customOps) == pairs)
        // its 70 hybrid 1×1 convolutions, 10 of them in the groups
        #expect(ours.hybridConvOps + 10 + pairs == 70)
        // the inexact opt-in keeps the 1×1 kernel
        let fast = try ModelResources(
            path: path, optimizeHybridModels: true, kernels: .standard.with(conv1x1: true, hybridConv: true))
        #expect(fast.hybridDepthwiseOps == 0 && fast.hybridConvOps == ours.hybridConvOps)
        var r = Random(state: 11)
        for threads in [1, 2] {
            for trial in 0..<2 {
                let input: [Float] = (0..<(320 * 320 * 3)).map { i in
                    trial == 0 ? r.float(-1...1) : Float(i % 960) / 480 - 1
                }
                let a = try CompiledModel(model: builtin.runtimeModel, threads: threads)
                let b = try CompiledModel(model: ours.runtimeModel, threads: threads, customOps: ours.customOps)
                #expect(b.customKernelCount == ours.customOps.count)
                let (x, y) = (try a.outputs(for: input), try b.outputs(for: input))
                let differing = x.indices.filter { x[$0] != y[$0] }
                #expect(x.count == 4 && differing.isEmpty, "outputs \(differing), \(threads) threads, trial \(trial)")
            }
        }
    }
}
