import CKernels
import Foundation
import LiteRT
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// The fused hybrid 1×1 convolution into a float depthwise convolution (`vt_cdw`,
/// "VisionTasksHybridConvDepthwise"), bit for bit: two-op models (hybrid CONV_2D, then a float32
/// DEPTHWISE_CONV_2D reading only its output) against LiteRT running both ops (XNNPACK's kernels), at
/// 1 and 2 threads, over strides, paddings, dilations, window sizes, channel counts that leave every
/// vector tail, and the four activations; every depthwise path against a reference written here
/// with XNNPACK's arithmetic.
@Suite("Hybrid 1×1 convolution into a float depthwise convolution", .enabled(if: TestAssets.shouldRun))
struct ConvDepthwiseKernelTests {
    typealias Random = TestRandom

    struct Case: CustomStringConvertible {
        var h: Int, w: Int, k: Int, c: Int, kh: Int, kw: Int, stride: Int32, dilation: Int32, valid: Bool,
            activation: Int8
        var description: String {
            "\(h)x\(w)x\(k)→\(c) \(kh)x\(kw)/s\(stride)/d\(dilation) \(valid ? "VALID" : "SAME") act\(activation)"
        }
    }

    static let cases: [Case] = [
        Case(h: 20, w: 20, k: 16, c: 96, kh: 3, kw: 3, stride: 2, dilation: 1, valid: false, activation: 3),
        Case(h: 17, w: 13, k: 24, c: 40, kh: 3, kw: 3, stride: 1, dilation: 1, valid: false, activation: 0),
        Case(h: 9, w: 11, k: 5, c: 7, kh: 3, kw: 3, stride: 2, dilation: 1, valid: true, activation: 1),
        Case(h: 12, w: 12, k: 32, c: 72, kh: 5, kw: 5, stride: 1, dilation: 2, valid: false, activation: 2),
        Case(h: 7, w: 10, k: 12, c: 136, kh: 2, kw: 3, stride: 2, dilation: 1, valid: false, activation: 3),
    ]

    struct Parts {
        var weights: [UInt8], scales: [Float], convBias: [Float], filter: [Float], bias: [Float]
    }

    static func parts(_ c: Case, _ r: inout Random) -> Parts {
        Parts(
            weights: (0..<(c.c * c.k)).map { _ in UInt8(bitPattern: Int8(truncatingIfNeeded: Int(r.next() % 255) - 127))
            },
            scales: (0..<c.c).map { _ in r.float(1e-3...2e-2) }, convBias: (0..<c.c).map { _ in r.float(-1...1) },
            filter: (0..<(c.kh * c.kw * c.c)).map { _ in r.float(-1...1) },
            bias: (0..<c.c).map { _ in r.float(-0.5...0.5) })
    }

    /// input → hybrid 1×1 CONV_2D (RELU6) → DEPTHWISE_CONV_2D (float32); `convOutputToo`: the
    /// convolution's output is a model output as well (then it must not be fused).
    static func model(_ c: Case, _ p: Parts, convOutputToo: Bool = false) throws -> [UInt8] {
        var b = ModelBuilder(description: "hybrid 1x1 into float depthwise")
        let input = b.addTensor(Tensor(name: "input", shape: [1, c.h, c.w, c.k], type: .float32))
        let filter = b.addTensor(
            Tensor(
                name: "conv_filter", shape: [c.c, 1, 1, c.k], type: .int8, buffer: b.addBuffer(p.weights),
                quantization: .init(
                    scales: p.scales, zeroPoints: Array(repeating: 0, count: c.c), quantizedDimension: 0)))
        let convBias = b.addConstant(name: "conv_bias", shape: [c.c], floats: p.convBias)
        let mid = b.addTensor(Tensor(name: "expanded", shape: [1, c.h, c.w, c.c], type: .float32))
        let dwFilter = b.addConstant(name: "dw_filter", shape: [1, c.kh, c.kw, c.c], floats: p.filter)
        let dwBias = b.addConstant(name: "dw_bias", shape: [c.c], floats: p.bias)
        let (oh, ow) = outputSize(c)
        let output = b.addTensor(Tensor(name: "output", shape: [1, oh, ow, c.c], type: .float32))
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: b.opcode(OperatorCode(builtinCode: 3)), inputs: [input, filter, convBias], outputs: [mid],
                builtinOptionsType: 1, builtinOptions: [0: .int8(0), 1: .int32(1), 2: .int32(1), 3: .int8(3)]),
            ModelBuilder.Op(
                opcodeIndex: b.opcode(OperatorCode(builtinCode: 4)), inputs: [mid, dwFilter, dwBias], outputs: [output],
                builtinOptionsType: 2,
                builtinOptions: [
                    0: .int8(c.valid ? 1 : 0), 1: .int32(c.stride), 2: .int32(c.stride), 3: .int32(1),
                    4: .int8(c.activation), 5: .int32(c.dilation), 6: .int32(c.dilation),
                ]),
        ]
        b.inputs = [input]
        b.outputs = convOutputToo ? [output, mid] : [output]
        return try b.build()
    }

    static func outputSize(_ c: Case) -> (Int, Int) {
        let eh = (c.kh - 1) * Int(c.dilation) + 1, ew = (c.kw - 1) * Int(c.dilation) + 1, s = Int(c.stride)
        return c.valid ? ((c.h - eh + s) / s, (c.w - ew + s) / s) : ((c.h + s - 1) / s, (c.w + s - 1) / s)
    }

    static func input(_ c: Case, trial: Int, _ r: inout Random) -> [Float] {
        (0..<(c.h * c.w * c.k)).map { i in
            switch trial {
            case 0: return r.float(-3...6)
            case 1: return i % 5 == 0 ? r.float(-1e4...1e4) : r.float(-1e-3...1e-3)
            default: return 0
            }
        }
    }

    @Test(
        "bit-identical to LiteRT running the two ops (XNNPACK's kernels), 1 and 2 threads",
        .enabled(
            if: TestAssets.exactKernelsMatchRuntime, "copies of x86-64 XNNPACK's arithmetic; arm64 runs LiteRT's own"),
        arguments: cases)
    func againstLiteRT(_ c: Case) throws {
        try #require(CompiledModel.convDepthwiseFusionExact, "XNNPACK's float depthwise kernels here are not FMA ones")
        var r = Random(state: 0x00C0_FFEE &+ UInt64(c.k * 131 + c.c))
        let p = Self.parts(c, &r)
        let bytes = try Self.model(c, p)
        let builtin = try ModelResources(bytes: bytes, kernels: .standard.with(hybridDepthwise: false, conv1x1: false))
        let ours = try ModelResources(
            bytes: bytes, kernels: .standard.with(hybridDepthwise: true, conv1x1: true, hybridConv: true))
        #expect(builtin.customOps.isEmpty && ours.customOps == ["VisionTasksHybridConvDepthwise_0"])
        for trial in 0..<3 {
            let x = Self.input(c, trial: trial, &r)
            let a = try runModel(builtin, x)
            for threads in [1, 2] {
                let b = try runModel(ours, x, threads: threads)
                let (oh, ow) = Self.outputSize(c)
                #expect(a.count == oh * ow * c.c * 4 && a == b, "\(c), trial \(trial), \(threads) threads")
            }
        }
    }

    @Test("not fused when another op or the model's outputs read the convolution's output")
    func sharedOutputStaysApart() throws {
        var r = Random(state: 5)
        let c = Self.cases[0]
        let ours = try ModelResources(
            bytes: Self.model(c, Self.parts(c, &r), convOutputToo: true),
            kernels: .standard.with(hybridDepthwise: true, conv1x1: true, hybridConv: true))
        #expect(ours.customOps == ["VisionTasksHybridConv_0"])
    }

    /// The op's custom options as the rewrite writes them, with the convolution's filter placed at the
    /// end of `model` (its "VTHC" options name it by its distance from the end and its digest).
    static func options(_ c: Case, _ p: Parts) -> (options: [UInt8], model: [UInt8]) {
        func int32(_ v: Int32, _ out: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func floats(_ v: [Float], _ out: inout [UInt8]) {
            for f in v { withUnsafeBytes(of: f.bitPattern.littleEndian) { out += $0 } }
        }
        var conv: [UInt8] = Array("VTHC".utf8)
        for v in [Int32(2), Int32(c.k), Int32(c.c), 3] { int32(v, &conv) }
        let digest = p.weights.withUnsafeBufferPointer { vt_filter_digest($0.baseAddress, $0.count) }
        withUnsafeBytes(of: UInt64(p.weights.count).littleEndian) { conv += $0 }
        withUnsafeBytes(of: digest.littleEndian) { conv += $0 }
        floats(p.scales, &conv)
        floats(p.convBias, &conv)
        var out: [UInt8] = Array("VTCD".utf8)
        for v in [1, Int32(c.kh), Int32(c.kw), Int32(c.c), c.stride, c.stride, c.dilation, c.dilation] {
            int32(v, &out)
        }
        int32(c.valid ? 1 : 0, &out)
        int32(Int32(c.activation), &out)
        floats(p.filter, &out)
        floats(p.bias, &out)
        int32(Int32(conv.count), &out)
        out += conv + [UInt8](repeating: 0, count: (4 - conv.count % 4) % 4)
        return (out, [0x5A, 0x5A] + p.weights)
    }

    /// Where the convolution's options' size is in the op's options: after "VTCD", the version, nine
    /// int32 and the filter and bias.
    static func convOptionsOffset(_ c: Case) -> Int { 44 + 4 * (c.kh * c.kw + 1) * c.c }

    /// XNNPACK's f32 unipass depthwise arithmetic, written out: the bias, one fused multiply-add per tap
    /// (kernel columns outer, rows inner; padding taps multiply 0), then max(min, ·), min(max, ·).
    static func reference(_ c: Case, _ p: Parts, expanded e: [Float]) -> [Float] {
        let (oh, ow) = outputSize(c)
        let eh = (c.kh - 1) * Int(c.dilation) + 1, ew = (c.kw - 1) * Int(c.dilation) + 1, s = Int(c.stride)
        let padH = c.valid ? 0 : max((oh - 1) * s + eh - c.h, 0) / 2
        let padW = c.valid ? 0 : max((ow - 1) * s + ew - c.w, 0) / 2
        let (lo, hi): (Float, Float) = [(-.infinity, .infinity), (0, .infinity), (-1, 1), (0, 6)][Int(c.activation)]
        var out = [Float](repeating: 0, count: oh * ow * c.c)
        for oy in 0..<oh {
            for ox in 0..<ow {
                for ch in 0..<c.c {
                    var acc = p.bias[ch]
                    for x in 0..<c.kw {
                        for y in 0..<c.kh {
                            let iy = oy * s - padH + y * Int(c.dilation), ix = ox * s - padW + x * Int(c.dilation)
                            let v: Float =
                                iy >= 0 && iy < c.h && ix >= 0 && ix < c.w ? e[(iy * c.w + ix) * c.c + ch] : 0
                            acc = acc.addingProduct(v, p.filter[(y * c.kw + x) * c.c + ch])
                        }
                    }
                    acc = lo > acc ? lo : acc
                    out[(oy * ow + ox) * c.c + ch] = hi < acc ? hi : acc
                }
            }
        }
        return out
    }

    @Test(
        "every depthwise path (scalar, AVX2 + FMA, AVX-512) equals XNNPACK's arithmetic written out", arguments: cases)
    func paths(_ c: Case) throws {
        var r = Random(state: 0xD1CE &+ UInt64(c.c))
        let p = Self.parts(c, &r)
        let (options, model) = Self.options(c, p)
        let op = try #require(
            options.withUnsafeBufferPointer { o in
                model.withUnsafeBufferPointer {
                    vt_cdw_create_from_options(o.baseAddress, o.count, $0.baseAddress, $0.count)
                }
            })
        defer { vt_cdw_free(op) }
        // The convolution alone, for the reference: its "VTHC" options follow the size after the depthwise part.
        let at = Self.convOptionsOffset(c)
        var convSize = 0
        for (i, byte) in options[at..<at + 4].enumerated() { convSize |= Int(byte) << (8 * i) }
        let convOptions = Array(options[(at + 4)..<(at + 4 + convSize)])
        var h = vt_hconv_params()
        let conv = try #require(
            convOptions.withUnsafeBufferPointer { o in
                model.withUnsafeBufferPointer { m -> OpaquePointer? in
                    guard vt_hconv_decode_options(o.baseAddress, o.count, m.baseAddress, m.count, &h) == 0 else {
                        return nil
                    }
                    return vt_hconv_create(&h)
                }
            })
        defer { vt_conv1x1_free(conv) }
        let (oh, ow) = Self.outputSize(c)
        for trial in 0..<2 {
            let x = Self.input(c, trial: trial, &r)
            var expanded = [Float](repeating: 0, count: c.h * c.w * c.c)
            var scratch = [UInt8](repeating: 0, count: vt_conv1x1_scratch_size(conv, 1))
            #expect(vt_conv1x1_run(conv, x, Int64(c.h * c.w), &expanded, &scratch, scratch.count, 1, nil) == 0)
            let want = Self.reference(c, p, expanded: expanded)
            for path in ["scalar", "avx2", "avx512"] {
                for threads: Int32 in [1, 2] {
                    var out = [Float](repeating: .nan, count: oh * ow * c.c)
                    var s = [UInt8](repeating: 0, count: vt_cdw_scratch_size(op, Int32(c.h), Int32(c.w), threads))
                    let status = vt_cdw_run_path(
                        op, kernelPath(path), x, 1, Int32(c.h), Int32(c.w), &out, &s, s.count, threads, nil)
                    if status == -2 { continue }  // this CPU lacks the path's instructions
                    let same = zip(out, want).allSatisfy { $0.bitPattern == $1.bitPattern }
                    #expect(status == 0 && same, "\(c), \(path), \(threads) threads, trial \(trial)")
                }
            }
        }
    }

    @Test(
        """
        the kernels' CPU paths are the ones a run under an emulated CPU expects (VISION_TASKS_EXPECT_PATHS, set by \
        scripts/x86/avx2-check.sh)
        """)
    func expectedPaths() {
        let want = ProcessInfo.processInfo.environment["VISION_TASKS_EXPECT_PATHS"] ?? ""
        guard !want.isEmpty else { return }  // a run on the machine's own CPU
        #expect(String(cString: vt_path_name(vt_conv1x1_path())) == want)
        #expect(String(cString: vt_path_name(vt_hdw_path())) == want)
        #expect(String(cString: vt_path_name(vt_cdw_path())) == want)
        #expect(CompiledModel.quantizedDepthwiseKernelPath == want)
        #expect(CompiledModel.convDepthwiseFusionExact && CompiledModel.conv1x1KernelPreferred)
    }

    @Test("malformed options are refused: truncated, a wrong size, a bad window, a convolution of other channels")
    func malformedOptions() throws {
        var r = Random(state: 9)
        let c = Self.cases[1]
        let p = Self.parts(c, &r)
        let (options, model) = Self.options(c, p)
        func accepted(_ o: [UInt8]) -> Bool {
            o.withUnsafeBufferPointer { ob in
                model.withUnsafeBufferPointer { m in
                    guard let op = vt_cdw_create_from_options(ob.baseAddress, ob.count, m.baseAddress, m.count) else {
                        return false
                    }
                    vt_cdw_free(op)
                    return true
                }
            }
        }
        #expect(accepted(options))
        #expect(!accepted(Array(options.dropLast(4))))
        #expect(!accepted(options + [0, 0, 0, 0]))
        #expect(!accepted(Array(options.prefix(40))))
        var badWindow = options
        badWindow[8] = 0  // kernel height 0
        #expect(!accepted(badWindow))
        var otherChannels = options
        otherChannels[16] &+= 1  // channels: no longer the convolution's outputs
        #expect(!accepted(otherChannels))
        var badDigest = options
        badDigest[Self.convOptionsOffset(c) + 4 + 28] ^= 1  // the filter's digest ("VTHC", 4 int32, its place)
        #expect(!accepted(badDigest))
    }
}
