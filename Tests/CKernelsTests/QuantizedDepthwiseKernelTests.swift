import CKernels
import Foundation
import LiteRT
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// VisionTasks' uint8/int8 depthwise kernel against XNNPACK's QU8 and QC8 DWConv (LiteRT's paths for
/// these ops), bit for bit: single-op models of many shapes, zero points, scales (per channel for int8)
/// and activations on random, extreme and constant inputs, every path (scalar, AVX2, AVX-512 VNNI, the
/// VNNI kernel in portable C; on arm64 scalar and NEON) at 1 and 2 threads; the SSD and classifier models
/// (the int8 TF2 MobileNet v2 too) whose depthwise ops move onto the kernel, with outputs identical to
/// LiteRT's — on arm64 (under qemu) to LiteRT's aarch64 library, whose uint8 requantization is another.
/// On x86-64 the ops of aarch64's arithmetic run too: the NEON kernel in portable C against the scalar path.
@Suite("Exact uint8 depthwise kernel", .enabled(if: TestAssets.shouldRun))
struct QuantizedDepthwiseKernelTests {
    struct Case: CustomStringConvertible {
        var h: Int, w: Int, c: Int
        var kh = 3, kw = 3, sh: Int32 = 1, sw: Int32 = 1, dh: Int32 = 1, dw: Int32 = 1, valid = false
        var izp: Int64 = 128, fzp: Int64 = 120, ozp: Int64 = 0
        var iscale: Float = 0.0235, fscale: Float = 0.02, oscale: Float = 0.0235
        var activation: Int8 = 3, bias = true
        /// int8 input, filter and output (the filter's zero point 0), its scales per channel unless `perTensor`.
        var signed = false, perTensor = false
        var description: String {
            "\(h)x\(w)x\(c) \(kh)x\(kw)/\(sh),\(sw) d\(dh),\(dw)\(valid ? " VALID" : "") zp \(izp)/\(fzp)/\(ozp) "
                + "act\(activation)\(bias ? "" : " no bias")"
                + "\(signed ? (perTensor ? " int8" : " int8 per channel") : "")"
        }
        /// The filter's scale for each channel.
        var filterScales: [Float] {
            (0..<c).map { signed && !perTensor ? fscale * (0.4 + Float($0 % 7) * 0.15) : fscale }
        }
        var outputSize: (h: Int, w: Int) {
            let eh = (kh - 1) * Int(dh) + 1, ew = (kw - 1) * Int(dw) + 1
            return valid
                ? ((h - eh) / Int(sh) + 1, (w - ew) / Int(sw) + 1)
                : ((h + Int(sh) - 1) / Int(sh), (w + Int(sw) - 1) / Int(sw))
        }
    }

    static let cases: [Case] = [
        Case(h: 19, w: 19, c: 512),  // SSD v1's 19×19 layers
        Case(h: 20, w: 21, c: 24, izp: 7, fzp: 140, ozp: 200),  // SSD v1's first: one block and an overlapping one
        Case(h: 16, w: 15, c: 32, sh: 2, sw: 2, activation: 1),  // MobileNet v2's first, stride 2: pixels in pairs
        Case(h: 38, w: 37, c: 64, sh: 2, sw: 2),  // stride 2, odd width (SAME pads one side)
        Case(h: 12, w: 10, c: 144, sh: 2, sw: 2, fzp: 255, ozp: 3),  // MobileNet v2's 144 channels
        Case(h: 9, w: 11, c: 8, izp: 0, fzp: 0, activation: 0),  // fewer channels than a vector
        Case(h: 7, w: 6, c: 40, valid: true, izp: 255, fzp: 1, ozp: 255, activation: 1, bias: false),  // 2 blocks + 8
        Case(h: 13, w: 15, c: 33, dh: 2, dw: 3, ozp: 77, oscale: 0.05, activation: 2),
        Case(h: 6, w: 9, c: 24, kh: 5, kw: 5, sh: 1, sw: 2),
        Case(h: 5, w: 4, c: 17, kh: 2, kw: 3, iscale: 0.5, fscale: 0.9, oscale: 7.3, activation: 0),
        Case(h: 12, w: 12, c: 16, kh: 9, kw: 9, izp: 3, fzp: 200, ozp: 90, activation: 0),  // 81 taps: the scalar path
        // A requantization scale of 200: on aarch64 a pre-shift of 8 that wraps (a dwconv window) or
        // saturates (81 taps: XNNPACK's IGEMM).
        Case(h: 6, w: 7, c: 20, iscale: 1, fscale: 1, oscale: 0.005, activation: 0),
        Case(
            h: 10, w: 10, c: 16, kh: 9, kw: 9, izp: 250, fzp: 3, ozp: 128, iscale: 1, fscale: 1, oscale: 0.005,
            activation: 0),
        // int8, per-channel filter scales (TF2 MobileNet v2's: input zero point −128, ReLU6)
        Case(h: 14, w: 14, c: 96, izp: -128, fzp: 0, ozp: -128, signed: true),
        Case(h: 15, w: 16, c: 144, sh: 2, sw: 2, izp: -128, fzp: 0, ozp: -128, signed: true),
        Case(h: 9, w: 11, c: 8, izp: 5, fzp: 0, ozp: 127, activation: 0, signed: true),  // fewer than 16 channels
        Case(
            h: 7, w: 6, c: 40, valid: true, izp: 127, fzp: 0, ozp: -7, oscale: 0.01, activation: 1, bias: false,
            signed: true),
        Case(
            h: 6, w: 9, c: 33, kh: 5, kw: 5, sw: 2, izp: -3, fzp: 0, ozp: 0, activation: 2, signed: true,
            perTensor: true),
        // The dot-product path's shapes (more than 32 channels, in blocks of 64, interior pixels three at a
        // time): one whole block with dilations, a tail of 8 after three blocks with outputs saturating
        // at both ends, vertical stride 2 alone.
        Case(h: 11, w: 17, c: 64, dh: 2, dw: 2, izp: -100, fzp: 0, ozp: 50, activation: 0, signed: true),
        Case(h: 10, w: 23, c: 200, izp: 0, fzp: 0, ozp: -128, oscale: 0.004, activation: 0, signed: true),
        Case(h: 9, w: 14, c: 130, sh: 2, izp: 127, fzp: 0, ozp: 10, activation: 3, signed: true),
        // 32 channels at stride 1: two pixels per block, six at a time, odd widths leaving some alone;
        // at stride 2 the pairs kernel.
        Case(h: 13, w: 19, c: 32, izp: -128, fzp: 0, ozp: -128, signed: true),
        Case(h: 8, w: 10, c: 32, dw: 2, izp: 3, fzp: 0, ozp: -1, activation: 1, signed: true),
        Case(h: 9, w: 9, c: 32, sh: 2, sw: 2, izp: -128, fzp: 0, ozp: -128, signed: true),
    ]

    typealias Random = TestRandom

    struct Parts {
        var filter: [UInt8], bias: [Int32]
    }

    static func parts(_ k: Case, _ r: inout Random) -> Parts {
        Parts(
            filter: (0..<(k.kh * k.kw * k.c)).map { _ in UInt8(truncatingIfNeeded: r.next()) },
            bias: (0..<k.c).map { _ in k.bias ? Int32(truncatingIfNeeded: Int(r.next() % 40_001) - 20_000) : 0 })
    }

    static func model(_ k: Case, _ parts: Parts, biasScale: Float? = nil) throws -> [UInt8] {
        var b = ModelBuilder(description: "uint8 depthwise")
        func q(_ scale: Float, _ zp: Int64) -> Tensor.QuantizationParameters {
            .init(scales: [scale], zeroPoints: [zp])
        }
        let type: TensorType = k.signed ? .int8 : .uint8
        let input = b.addTensor(
            Tensor(name: "input", shape: [1, k.h, k.w, k.c], type: type, quantization: q(k.iscale, k.izp)))
        let perChannel = k.signed && !k.perTensor
        let fs = k.filterScales
        let filter = b.addTensor(
            Tensor(
                name: "filter", shape: [1, k.kh, k.kw, k.c], type: type, buffer: b.addBuffer(parts.filter),
                quantization: perChannel
                    ? .init(scales: fs, zeroPoints: [Int64](repeating: 0, count: k.c), quantizedDimension: 3)
                    : q(k.fscale, k.fzp)))
        let bytes = parts.bias.flatMap { v in withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        let biasScales = fs.map { biasScale ?? k.iscale * $0 }
        let bias = b.addTensor(
            Tensor(
                name: "bias", shape: [k.c], type: .int32, buffer: b.addBuffer(bytes),
                quantization: perChannel
                    ? .init(scales: biasScales, zeroPoints: [Int64](repeating: 0, count: k.c))
                    : q(biasScales[0], 0)))
        let output = b.addTensor(
            Tensor(
                name: "output", shape: [1, k.outputSize.h, k.outputSize.w, k.c], type: type,
                quantization: q(k.oscale, k.ozp)))
        let code = b.opcode(OperatorCode(builtinCode: 4))
        // DepthwiseConv2DOptions: padding, stride_w, stride_h, depth_multiplier, activation, dilation_w, dilation_h.
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: code, inputs: [input, filter, bias], outputs: [output], builtinOptionsType: 2,
                builtinOptions: [
                    0: .int8(k.valid ? 1 : 0), 1: .int32(k.sw), 2: .int32(k.sh), 3: .int32(1), 4: .int8(k.activation),
                    5: .int32(k.dw), 6: .int32(k.dh),
                ])
        ]
        b.inputs = [input]
        b.outputs = [output]
        return try b.build()
    }

    /// The paths this CPU can run for ops of its own arithmetic; "vnni-portable" runs everywhere on x86-64.
    static var paths: [String] {
        switch CompiledModel.quantizedDepthwiseKernelPath {
        case "vnni": return ["scalar", "avx2", "vnni", "vnni-portable"]
        case "avx2": return ["scalar", "avx2", "vnni-portable"]
        case "neon": return ["scalar", "neon"]
        default: return ["scalar", "vnni-portable"]
        }
    }

    /// The op of `arithmetic`'s arithmetic run directly on `path` with `threads` threads.
    static func direct(
        _ k: Case, _ parts: Parts, _ input: [UInt8], path: String, threads: Int32,
        arithmetic: vt_arithmetic = VT_ARITHMETIC_NATIVE
    ) -> [UInt8]? {
        let scales = k.filterScales
        return parts.filter.withUnsafeBufferPointer { f in
            parts.bias.withUnsafeBufferPointer { b in
                scales.withUnsafeBufferPointer { s in
                    var p = vt_qdw_params(
                        kernel_h: Int32(k.kh), kernel_w: Int32(k.kw), channels: Int32(k.c), stride_h: k.sh,
                        stride_w: k.sw,
                        dilation_h: k.dh, dilation_w: k.dw, padding: k.valid ? 1 : 0, activation: Int32(k.activation),
                        input_zero_point: Int32(k.izp), filter_zero_point: Int32(k.fzp),
                        output_zero_point: Int32(k.ozp),
                        input_scale: k.iscale, filter_scale: k.fscale, output_scale: k.oscale, filter: f.baseAddress,
                        bias: b.baseAddress, is_signed: k.signed ? 1 : 0,
                        filter_scales: k.signed && !k.perTensor ? s.baseAddress : nil)
                    guard let op = vt_qdw_create_for(&p, arithmetic) else { return nil }
                    defer { vt_qdw_free(op) }
                    var out = [UInt8](repeating: 0xA5, count: k.outputSize.h * k.outputSize.w * k.c)
                    let status = vt_qdw_run_path(
                        op, kernelPath(path), input, 1, Int32(k.h), Int32(k.w), &out, threads, nil)
                    return status == 0 ? out : nil
                }
            }
        }
    }

    @Test("bit-identical to XNNPACK's QU8 DWConv on every path, 1 and 2 threads", arguments: cases)
    func bitIdentical(_ k: Case) throws {
        var r = Random(state: 0x5851_F42D_4C95_7F2D &+ UInt64(k.c * 131 + k.kh))
        let parts = Self.parts(k, &r)
        let bytes = try Self.model(k, parts)
        let builtin = try ModelResources(bytes: bytes, kernels: .standard.with(conv1x1: false, depthwise: false))
        let ours = try ModelResources(bytes: bytes, kernels: .standard.with(conv1x1: false, depthwise: true))
        #expect(builtin.customOps.isEmpty && ours.quantizedDepthwiseOps == 1)
        let count = k.h * k.w * k.c
        for trial in 0..<4 {
            let input: [UInt8] = (0..<count).map { i in
                switch trial {
                case 0: return UInt8(truncatingIfNeeded: r.next())
                case 1: return i % 2 == 0 ? 255 : 0
                case 2: return UInt8(truncatingIfNeeded: r.next() % 8) &+ UInt8(truncatingIfNeeded: k.izp) &- 4
                default: return UInt8(truncatingIfNeeded: k.izp)
                }
            }
            let a = try runModel(builtin, input)
            #expect(a.count == k.outputSize.h * k.outputSize.w * k.c)
            for threads in [1, 2] {
                let b = try runModel(ours, input, threads: threads)
                let differing = zip(a, b).filter { $0.0 != $0.1 }.count
                #expect(b.count == a.count && differing == 0, "\(k), trial \(trial), \(threads) threads: \(differing)")
                for path in Self.paths {
                    let d = try #require(Self.direct(k, parts, input, path: path, threads: Int32(threads)), "\(path)")
                    let wrong = d.count == a.count ? zip(a, d).filter { $0.0 != $0.1 }.count : -1
                    #expect(wrong == 0, "\(k), trial \(trial), \(path), \(threads) threads: \(wrong) differing bytes")
                }
                #if !arch(arm64)
                    // aarch64's arithmetic here: the NEON kernel's source, in portable C, against the scalar path.
                    let arm = try #require(
                        Self.direct(k, parts, input, path: "scalar", threads: 1, arithmetic: VT_ARITHMETIC_AARCH64))
                    let neon = try #require(
                        Self.direct(
                            k, parts, input, path: "neon-portable", threads: Int32(threads),
                            arithmetic: VT_ARITHMETIC_AARCH64))
                    let wrong = zip(arm, neon).filter { $0.0 != $0.1 }.count
                    #expect(
                        wrong == 0, "\(k), trial \(trial), neon-portable, \(threads) threads: \(wrong) differing bytes")
                    // A uint8 op of aarch64's arithmetic is refused by x86-64's vector paths.
                    if !k.signed {
                        #expect(
                            Self.direct(
                                k, parts, input, path: "vnni-portable", threads: 1, arithmetic: VT_ARITHMETIC_AARCH64)
                                == nil)
                    }
                #endif
            }
        }
    }

    @Test(
        "SSD MobileNet v1 and the uint8 classifiers: their depthwise ops run on the kernel; outputs identical",
        arguments: [
            "ssd_mobilenet_v1_coco_quant_metadata.tflite", "mobilenet_v2_1.0_224_quant.tflite",
            "mobilenet_v1_0.25_128_quant.tflite", "mobilenet_v2_1.0_224_inat_bird_quant.tflite",
            "tf2_mobilenet_v2_1.0_224_ptq.tflite",
        ])
    func models(name: String) throws {
        let path = TestAssets.model(name)
        let builtin = try ModelResources(path: path, kernels: .standard.with(conv1x1: false, depthwise: false))
        let ours = try ModelResources(path: path, kernels: .standard.with(conv1x1: true, depthwise: true))
        let depthwise = name.contains("v2") ? 17 : 13
        #expect(builtin.customOps.isEmpty)
        #expect(ours.quantizedDepthwiseOps == depthwise)
        let a = try CompiledModel(model: builtin.runtimeModel, threads: 1)
        let count = a.inputs[0].byteCount
        var r = Random(state: 17)
        for threads in [1, 2] {
            let b = try CompiledModel(model: ours.runtimeModel, threads: threads, customOps: ours.customOps)
            for trial in 0..<2 {
                let input: [UInt8] = (0..<count).map { i in
                    trial == 0 ? UInt8(truncatingIfNeeded: r.next()) : UInt8(truncatingIfNeeded: i / 3 + i % 3 * 85)
                }
                let (x, y) = (try a.outputs(for: input), try b.outputs(for: input))
                let differing = x.indices.filter { x[$0] != y[$0] }
                #expect(differing.isEmpty, "\(name) outputs \(differing), \(threads) threads, \(trial)")
            }
        }
    }

    @Test("an op XNNPACK leaves to LiteRT's own kernel (a bias without the product scale) is not rewritten")
    func biasScale() throws {
        var r = Random(state: 3)
        for k in [Case(h: 5, w: 5, c: 16), Case(h: 5, w: 5, c: 16, izp: 0, fzp: 0, ozp: 0, signed: true)] {
            let bytes = try Self.model(k, Self.parts(k, &r), biasScale: k.iscale * k.fscale * 1.01)
            #expect(try ModelResources(bytes: bytes, kernels: .standard.with(depthwise: true)).customOps.isEmpty)
        }
    }

    @Test("invalid parameters and malformed options are refused")
    func invalid() {
        let filter = [UInt8](repeating: 1, count: 9 * 4), bias = [Int32](repeating: 0, count: 4)
        func make(_ edit: (inout vt_qdw_params) -> Void) -> Bool {
            filter.withUnsafeBufferPointer { f in
                bias.withUnsafeBufferPointer { b in
                    var p = vt_qdw_params(
                        kernel_h: 3, kernel_w: 3, channels: 4, stride_h: 1, stride_w: 1, dilation_h: 1, dilation_w: 1,
                        padding: 0, activation: 0, input_zero_point: 1, filter_zero_point: 2, output_zero_point: 3,
                        input_scale: 0.5, filter_scale: 0.25, output_scale: 0.125, filter: f.baseAddress,
                        bias: b.baseAddress, is_signed: 0, filter_scales: nil)
                    edit(&p)
                    let op = vt_qdw_create(&p)
                    defer { vt_qdw_free(op) }
                    return op != nil
                }
            }
        }
        #expect(make { _ in })
        #expect(!make { $0.input_zero_point = 256 })
        #expect(!make { $0.output_zero_point = -1 })
        #expect(!make { $0.filter_scale = .nan })
        #expect(!make { $0.output_scale = 0 })
        #expect(!make { $0.input_scale = 300 })  // requantization scale 600
        #expect(!make { $0.padding = 2 })
        #expect(!make { $0.activation = 4 })
        #expect(!make { $0.stride_h = 0 })
        #expect(!make { $0.channels = 0 })
        // int8: zero points −128…127, the filter's 0, per-channel scales positive and finite.
        let channelScales: [Float] = [0.25, 0.5, 0.0, 0.25]
        #expect(
            make {
                $0.is_signed = 1; $0.filter_zero_point = 0; $0.input_zero_point = -128
            })
        #expect(!make { $0.is_signed = 1 })  // filter zero point 2
        #expect(
            !make {
                $0.is_signed = 1; $0.filter_zero_point = 0; $0.output_zero_point = 128
            })
        #expect(
            !make {
                $0.is_signed = 2; $0.filter_zero_point = 0
            })
        channelScales.withUnsafeBufferPointer { s in
            #expect(
                !make {
                    $0.is_signed = 1; $0.filter_zero_point = 0; $0.filter_scales = s.baseAddress
                })
            #expect(!make { $0.filter_scales = s.baseAddress })  // per-channel scales are for int8 only
        }
        // Options: "VTQD", version 1, 13 int32, 3 floats, the filter padded to 4, the bias.
        func options(_ edit: (inout [Int32]) -> Void = { _ in }, extra: Int = 0) -> [UInt8] {
            var ints: [Int32] = [1, 3, 3, 4, 1, 1, 1, 1, 0, 0, 1, 2, 3]
            edit(&ints)
            var out = Array("VTQD".utf8)
            for v in ints { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
            for v in [Float(0.5), 0.25, 0.125] { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
            out += filter + [UInt8](repeating: 0, count: 4 * 4 + extra)
            return out
        }
        func decode(_ o: [UInt8]) -> Int32 {
            var p = vt_qdw_params()
            return vt_qdw_decode_options(o, o.count, &p)
        }
        #expect(decode(options()) == 0)
        #expect(decode(options(extra: 1)) == -1)
        #expect(decode(Array(options().dropLast())) == -1)
        #expect(decode(options { $0[0] = 2 }) == -1)
        #expect(decode(options { $0[8] = 2 }) == -1)
        #expect(decode(options { $0[10] = 256 }) == -1)
        #expect(decode(options { $0[4] = 0 }) == -1)
        // Version 2 (int8): zero points −128…127 and the four per-channel scales before the filter.
        var int8 = options {
            $0[0] = 2; $0[10] = -128; $0[11] = 0; $0[12] = -5
        }
        #expect(decode(int8) == -1)  // no room for the scales
        int8.insert(contentsOf: [UInt8](repeating: 0, count: 16), at: 4 + 13 * 4 + 12)
        #expect(decode(int8) == 0)
        #expect(decode(options { $0[0] = 3 }) == -1)
    }
}
