import CKernels
import Foundation
import Testing
import VisionTestSupport

/// The 8-bit 1×1 kernel with XNNPACK's aarch64 arithmetic, on any CPU: every path that computes it —
/// scalar, and the NEON kernels with the dot product and without it (their instructions on an aarch64
/// CPU that has them, their source in portable C elsewhere) — against a reference written here from the closed forms of
/// docs/aarch64-xnnpack.md (the uint8 "rndnu" requantization as one 64-bit product and shift, the int8
/// fp32 one), not from the kernel's steps. On aarch64 the kernel suite then compares the same ops with
/// LiteRT's aarch64 library (`Conv1x1KernelTests`).
@Suite("The 1×1 kernel's aarch64 arithmetic")
struct Conv1x1Aarch64ArithmeticTests {
    typealias Case = Conv1x1KernelTests.Case

    static let cases: [Case] =
        Conv1x1KernelTests.cases.filter { !$0.spatial } + [
            // A scale ≥ 0.5: the saturating left pre-shift (by 1).
            Case(
                h: 3, w: 5, k: 40, n: 21, izp: 7, fzp: 250, ozp: 3, iscale: 0.3, fscale: 0.4, oscale: 0.2,
                activation: 0, bias: true),
            // A scale near 200: a pre-shift of 8, which saturates most sums.
            Case(
                h: 2, w: 7, k: 300, n: 35, izp: 128, fzp: 0, ozp: 128, iscale: 1, fscale: 1, oscale: 0.005,
                activation: 0, bias: true),
            // A tiny scale (≈ 2^-31): the post-shift at its far end.
            Case(
                h: 4, w: 4, k: 64, n: 16, izp: 0, fzp: 255, ozp: 255, iscale: 1e-5, fscale: 1e-4, oscale: 2,
                activation: 0, bias: true),
            // Rows of 16-byte groups and quads (K = 48 + 3 quads, read in place), every row-tile size.
            Case(
                h: 1, w: 7, k: 60, n: 48, izp: 99, fzp: 1, ozp: 17, iscale: 0.02, fscale: 0.01, oscale: 0.03,
                activation: 3, bias: true),
        ]

    /// The quantized bound of an activation's float bound `v` (XNNPACK's xnn_qu8_quantize / qs8).
    static func bound(_ v: Float, scale: Float, zp: Int64, signed: Bool) -> Int64 {
        let (lo, hi): (Float, Float) = signed ? (-128, 127) : (0, 255)
        return Int64(min(max(v / scale + Float(zp), lo), hi).rounded(.toNearestOrEven))
    }

    /// XNNPACK's aarch64 output byte for the int32 sum `acc` at requantization scale `scale` (uint8: by
    /// "rndnu", or with `rndnu16` by the requantization of its uint8 GEMMs on a Cortex-A53 or A55).
    static func reference(
        _ acc: Int32, scale: Float, zp: Int64, bounds: (Int64, Int64), signed: Bool, rndnu16: Bool = false
    ) -> UInt8 {
        var v: Int64
        if signed {
            v = Int64((Float(acc) * scale).rounded(.toNearestOrEven)) + zp
            v = min(max(v, -128), 127)
        } else if rndnu16 {
            // rndnu16: acc · 2^(e+1), rounded half up (or saturated), to int16; times the mantissa rounded
            // to 15 bits (2^15 as 2^14 · 2), / 2^15 rounded half up.
            let bits = scale.bitPattern
            let mantissa = Int64((bits & 0x7F_FFFF) | 0x80_0000)
            let rounded = (mantissa + 256) >> 9
            let multiplier = rounded == 32768 ? 16384 : rounded
            let shift = Int64(bits >> 23) - 126 + (rounded == 32768 ? 1 : 0)
            let shifted =
                shift >= 0
                ? min(max(Int64(acc) << shift, Int64(Int32.min)), Int64(Int32.max))
                : (Int64(acc) + (Int64(1) << (-shift - 1))) >> -shift
            let h = min(max(shifted, -32768), 32767)
            v = min(max(((h * multiplier + (1 << 14)) >> 15) + zp, 0), 255)
        } else {
            // rndnu: M·2^(e−157) as (acc·2^pre saturated)·M, rounded half up at bit 31 + post.
            let bits = scale.bitPattern
            let multiplier = Int64((bits & 0x7F_FFFF) | 0x80_0000) << 7
            let shift = 126 - Int64(bits >> 23)
            let post = max(shift, 1), pre = post - shift
            let shifted = min(max(Int64(acc) << pre, Int64(Int32.min)), Int64(Int32.max))
            v = (shifted * multiplier + (Int64(1) << (30 + post))) >> (31 + post)
            v = min(max(v + zp, 0), 255)
        }
        return UInt8(truncatingIfNeeded: min(max(v, bounds.0), bounds.1))
    }

    /// The arithmetics a case's op is made with: aarch64's, and for uint8 also rndnu16 (int8's is the same fp32).
    static func arithmetics(_ c: Case) -> [vt_arithmetic] {
        c.signed ? [VT_ARITHMETIC_AARCH64] : [VT_ARITHMETIC_AARCH64, VT_ARITHMETIC_AARCH64_RNDNU16]
    }

    /// The int32 sums (bias plus Σ (x − izp)(w − fzp)) of `input`'s pixels, [pixel][n]; computed once per input
    /// and shared by the arithmetics (a debug build under qemu spends most of this suite here).
    static func sums(_ c: Case, input: [UInt8], weights: [UInt8], bias: [Int32]) -> [Int32] {
        func value(_ b: UInt8, zp: Int64) -> Int32 {
            (c.signed ? Int32(Int8(bitPattern: b)) : Int32(b)) - Int32(zp)
        }
        let x = input.map { value($0, zp: c.izp) }, w = weights.map { value($0, zp: c.fzp) }
        let (pixels, n, k) = (x.count / c.k, c.n, c.k)
        var sums = [Int32](repeating: 0, count: pixels * n)
        x.withUnsafeBufferPointer { x in
            w.withUnsafeBufferPointer { w in
                sums.withUnsafeMutableBufferPointer { out in
                    for p in 0..<pixels {
                        let row = x.baseAddress.unsafelyUnwrapped + p * k
                        for j in 0..<n {
                            let filter = w.baseAddress.unsafelyUnwrapped + j * k
                            var acc = bias[j]
                            for i in 0..<k { acc = acc &+ row[i] &* filter[i] }
                            out[p * n + j] = acc
                        }
                    }
                }
            }
        }
        return sums
    }

    @Test(
        "every path equals the reference (uint8 rndnu and rndnu16, int8 fp32), 1 and 2 threads",
        arguments: cases)
    func matchesReference(_ c: Case) throws {
        var r = TestRandom(state: 0x9E37_79B9 &+ UInt64(c.k * 131 + c.n))
        let pixels = c.h * c.w
        let weights = (0..<(c.n * c.k)).map { _ in UInt8(truncatingIfNeeded: r.next()) }
        let bias = (0..<c.n).map { _ in c.bias ? Int32(truncatingIfNeeded: Int(r.next() % 400_001) - 200_000) : 0 }
        let scales = c.filterScales
        let kernels = try Self.arithmetics(c).map { arithmetic in
            (arithmetic, try #require(Conv1x1KernelTests.op(c, weights: weights, bias: bias, arithmetic: arithmetic)))
        }
        defer { for (_, kernel) in kernels { vt_conv1x1_free(kernel) } }
        let (lo, hi): (Float, Float) =
            switch c.activation {
            case 1: (0, .infinity)
            case 2: (-1, 1)
            case 3: (0, 6)
            default: (-.infinity, .infinity)
            }
        let bounds = (
            Self.bound(lo, scale: c.oscale, zp: c.ozp, signed: c.signed),
            Self.bound(hi, scale: c.oscale, zp: c.ozp, signed: c.signed)
        )
        for trial in 0..<3 {
            let input: [UInt8] = (0..<(pixels * c.k)).map { i in
                switch trial {
                case 0: return UInt8(truncatingIfNeeded: r.next())
                case 1: return i % 2 == 0 ? 255 : 0
                default: return UInt8(truncatingIfNeeded: c.izp)
                }
            }
            let sums = Self.sums(c, input: input, weights: weights, bias: bias)
            for (arithmetic, kernel) in kernels {
                let expected = sums.indices.map { i in
                    Self.reference(
                        sums[i], scale: c.iscale * scales[c.signed ? i % c.n : 0] / c.oscale, zp: c.ozp,
                        bounds: bounds, signed: c.signed, rndnu16: arithmetic == VT_ARITHMETIC_AARCH64_RNDNU16)
                }
                let outputs = input.withUnsafeBytes {
                    Conv1x1KernelTests.allPaths(
                        kernel, input: $0.baseAddress!, pixels: Int64(pixels), outputBytes: pixels * c.n,
                        paths: Conv1x1KernelTests.aarch64Paths)
                }
                #expect(outputs.count == Conv1x1KernelTests.aarch64Paths.count * 2)
                for (path, out) in outputs.sorted(by: { $0.key < $1.key }) {
                    let differing = zip(out, expected).filter { $0.0 != $0.1 }.count
                    let what = "\(c), \(arithmetic.rawValue), trial \(trial), \(path)"
                    #expect(differing == 0, "\(what): \(differing) of \(out.count) bytes differ")
                }
            }
        }
    }

    @Test("a path of the other arithmetic refuses an op; aarch64's refuses scales below 2^-32, as XNNPACK does")
    func refusals() throws {
        let w = [UInt8](repeating: 3, count: 8), b = [Int32](repeating: 0, count: 2)
        func make(_ arithmetic: vt_arithmetic, inputScale: Float = 0.5) -> OpaquePointer? {
            w.withUnsafeBufferPointer { wp in
                b.withUnsafeBufferPointer { bp in
                    var p = vt_qconv_params(
                        in_channels: 4, out_channels: 2, activation: 0, input_zero_point: 1, filter_zero_point: 2,
                        output_zero_point: 3, input_scale: inputScale, filter_scale: 0.25, output_scale: 0.5,
                        filter: wp.baseAddress, bias: bp.baseAddress, is_signed: 0, filter_scales: nil)
                    return vt_qconv_create_for(&p, arithmetic)
                }
            }
        }
        let x86 = try #require(make(VT_ARITHMETIC_X86_64)), arm = try #require(make(VT_ARITHMETIC_AARCH64))
        defer {
            vt_conv1x1_free(x86)
            vt_conv1x1_free(arm)
        }
        let input = [UInt8](repeating: 9, count: 4)
        var output = [UInt8](repeating: 0, count: 2)
        var scratch = [UInt8](repeating: 0, count: vt_conv1x1_scratch_size(arm, 1))
        func run(_ op: OpaquePointer, _ path: String) -> Int32 {
            vt_conv1x1_run_path(op, kernelPath(path), input, 1, &output, &scratch, scratch.count, 1, nil)
        }
        for path in ["vnni-portable", "avx2", "vnni"] { #expect(run(arm, path) == -1, "\(path)") }
        for path in ["neon-dot-portable", "neon-dot", "neon-portable", "neon"] {
            #expect(run(x86, path) == -1, "\(path)")
        }
        #expect(run(arm, "scalar") == 0 && run(x86, "scalar") == 0)
        #expect(make(VT_ARITHMETIC_AARCH64, inputScale: 1e-10) == nil)  // scale 5e-11 < 2^-32
        let tiny = make(VT_ARITHMETIC_X86_64, inputScale: 1e-10)
        #expect(tiny != nil)
        vt_conv1x1_free(tiny)
        #expect(make(vt_arithmetic(rawValue: 7)) == nil)
    }
}
