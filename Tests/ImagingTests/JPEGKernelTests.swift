import CJPEG
import Foundation
import Imaging
import Testing
import VisionTestSupport

/// The JPEG reconstruction's SIMD kernels (SSE2 and AVX2 on x86-64, NEON on aarch64 — run under qemu by
/// `make arm64`) against the portable C that defines them, bit for bit: the
/// inverse DCT on every kind of block (realistic, single coefficients, extreme and overflowing
/// values, 16-bit quantization tables), the colour conversion on all 2^24 colours, and whole
/// pictures of every sampling, damaged ones included. Where neither is compiled in, both calls run the
/// portable code and the test states it.
@Suite("JPEG kernels: SSE2 and NEON against portable C")
struct JPEGKernelTests {
    static let simd = vt_jpeg_simd_available() == 1

    /// One block through one path.
    static func idct(_ coefficients: [Int16], _ quant: [UInt16], simd: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        coefficients.withUnsafeBufferPointer { c in
            quant.withUnsafeBufferPointer { q in
                out.withUnsafeMutableBufferPointer { o in
                    vt_jpeg_idct_block_path(c.baseAddress, q.baseAddress, o.baseAddress, 8, simd ? 1 : 0)
                }
            }
        }
        return out
    }

    /// Two blocks through the AVX2 inverse DCT; nil where there is none.
    static func idctPair(_ a: [Int16], _ b: [Int16], _ quant: [UInt16]) -> ([UInt8], [UInt8])? {
        var outA = [UInt8](repeating: 0, count: 64), outB = outA
        let status = outA.withUnsafeMutableBufferPointer { oa in
            outB.withUnsafeMutableBufferPointer { ob in
                vt_jpeg_idct_pair_avx2(a, b, quant, oa.baseAddress, ob.baseAddress, 8)
            }
        }
        return status == 0 ? (outA, outB) : nil
    }

    /// Whether this CPU has AVX2 (the reconstruction then takes blocks two at a time).
    static let avx2: Bool = {
        var a = [UInt8](repeating: 0, count: 64), b = a
        let zeros = [Int16](repeating: 0, count: 64), ones = [UInt16](repeating: 1, count: 64)
        return vt_jpeg_idct_pair_avx2(zeros, zeros, ones, &a, &b, 8) == 0
    }()

    @Test("the SIMD kernels are compiled in on x86-64 (SSE2) and aarch64 (NEON)")
    func available() {
        #if arch(x86_64) || arch(arm64)
            #expect(Self.simd)
        #else
            #expect(!Self.simd)
        #endif
    }

    @Test("inverse DCT: 56,000 blocks of every kind give the same pixels through both paths")
    func idctBlocks() {
        var random = TestRandom(state: 0x1DC7_2026)
        var mismatches = 0, blocks = 0, pairMismatches = 0, pairs = 0
        let standardQuant: [UInt16] = (0..<64).map { UInt16(2 + $0 / 3) }
        var previous = [Int16](repeating: 0, count: 64)
        func check(_ c: [Int16], _ q: [UInt16]) {
            blocks += 1
            let portable = Self.idct(c, q, simd: false)
            if Self.idct(c, q, simd: true) != portable { mismatches += 1 }
            // The AVX2 form, two blocks at once: this one and the one before, in either half.
            if let (a, b) = Self.idctPair(previous, c, q) {
                pairs += 1
                if a != Self.idct(previous, q, simd: false) || b != portable { pairMismatches += 1 }
            }
            previous = c
        }
        // A DC term alone, over its whole range, with unit and coarse quantization.
        for dc in stride(from: -32768, through: 32767, by: 97) {
            var c = [Int16](repeating: 0, count: 64)
            c[0] = Int16(dc)
            check(c, [UInt16](repeating: 1, count: 64))
            check(c, standardQuant)
        }
        // Each coefficient alone, at values up to the 16-bit limits.
        for position in 0..<64 {
            for value: Int16 in [1, -1, 7, -300, 1023, -1024, 2047, 8191, -8192, 32767, -32768] {
                var c = [Int16](repeating: 0, count: 64)
                c[position] = value
                check(c, [UInt16](repeating: 1, count: 64))
            }
        }
        // Realistic blocks (small AC terms falling off with frequency), random wide blocks, and
        // blocks of extremes with 16-bit quantization values, which overflow 16 bits on purpose.
        for kind in 0..<3 {
            for _ in 0..<18_000 {
                var c = [Int16](repeating: 0, count: 64), q = [UInt16](repeating: 1, count: 64)
                for i in 0..<64 {
                    let r = random.next()
                    switch kind {
                    case 0:
                        let spread = 64 / (1 + i / 8)
                        c[i] =
                            i == 0
                            ? Int16(Int(r % 2048) - 1024)
                            : (r % 3 == 0 ? Int16(Int((r >> 8) % UInt64(spread)) - spread / 2) : 0)
                        q[i] = standardQuant[i]
                    case 1:
                        c[i] = Int16(truncatingIfNeeded: r)
                        q[i] = UInt16(1 + (r >> 20) % 4)
                    default:
                        c[i] = [Int16.min, Int16.max, 0, -1, 1][Int(r % 5)]
                        q[i] = [1, 255, 65535, 32768][Int((r >> 8) % 4)]
                    }
                }
                check(c, q)
            }
        }
        #expect(blocks == 56_056)
        #expect(mismatches == 0, "\(mismatches) of \(blocks) blocks differ")
        // Every x86-64 CPU with AVX2 runs the pairs (this machine's does); others have no AVX2 form.
        #if arch(x86_64)
            #expect(pairs == 56_056 || (pairs == 0 && !Self.avx2))
        #endif
        #expect(pairMismatches == 0, "\(pairMismatches) of \(pairs) pairs differ")
    }

    @Test("YCbCr → RGB: all 2^24 colours give the same bytes through both paths")
    func allColours() {
        let count = 1 << 24
        var y = [UInt8](repeating: 0, count: count), cb = y, cr = y
        for i in 0..<count {
            y[i] = UInt8(truncatingIfNeeded: i >> 16)
            cb[i] = UInt8(truncatingIfNeeded: i >> 8)
            cr[i] = UInt8(truncatingIfNeeded: i)
        }
        func convert(simd: Bool) -> [UInt8] {
            var rgb = [UInt8](repeating: 0, count: count * 3)
            rgb.withUnsafeMutableBufferPointer { o in
                vt_jpeg_ycc_row_path(y, cb, cr, o.baseAddress, Int32(count), simd ? 1 : 0)
            }
            return rgb
        }
        let fast = convert(simd: true), portable = convert(simd: false)
        #expect(fast == portable)
        // Spot values of the 20-bit formula: mid grey, pure red's YCbCr, and clamping at both ends.
        #expect(
            Array(portable[(128 << 16 | 128 << 8 | 128) * 3..<(128 << 16 | 128 << 8 | 128) * 3 + 3]) == [128, 128, 128])
        #expect(Array(portable[(76 << 16 | 85 << 8 | 255) * 3..<(76 << 16 | 85 << 8 | 255) * 3 + 3]) == [254, 0, 0])
        #expect(
            Array(portable[(255 << 16 | 255 << 8 | 255) * 3..<(255 << 16 | 255 << 8 | 255) * 3 + 3]) == [255, 121, 255])
    }

    /// Every JPEG the tests know: the sampling variants, the damaged fixtures and the shared photos.
    static func pictures() throws -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        for folder in ["Tests/Fixtures/jpeg", "Tests/Fixtures/jpeg-damaged"] {
            let url = TestAssets.packageRoot.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            where name.hasSuffix(".jpg") {
                files.append((name, try TestAssets.bytes(url.appendingPathComponent(name).path)))
            }
        }
        if TestAssets.shouldRun {
            for name in TestAssets.photoNames where name.hasSuffix(".jpg") {
                files.append((name, try TestAssets.bytes(TestAssets.image(name))))
            }
        }
        return files
    }

    @Test(
        "whole pictures: every sampling, progressive, gray, CMYK, YCCK, RGB and damaged files decode to the same bytes")
    func wholePictures() throws {
        let files = try Self.pictures()
        #expect(files.count >= 20)
        var compared = 0
        for (name, bytes) in files {
            let fast: Bitmap, portable: Bitmap
            do {
                fast = try JPEGDecoder.decode(bytes, simd: true)
                portable = try JPEGDecoder.decode(bytes, simd: false)
            } catch {
                #expect(throws: ImagingError.self, "\(name)") { try JPEGDecoder.decode(bytes, simd: false) }
                continue
            }
            #expect(fast.pixels == portable.pixels, "\(name)")
            compared += 1
        }
        #expect(compared >= 18)
    }
}

/// `decode(contentsOfFile:reducedTo:)`: libjpeg-turbo's DCT scaling, the smallest scale that keeps the
/// size asked for; the exact decode where no scale is small enough, for PNGs and for CMYK files.
@Suite("Fast (reduced) JPEG decoding")
struct ReducedDecodingTests {
    @Test("cat_720p.jpg: 1/2 for 300×300, 1/4 for 100×100, exact for 1000×1000", .enabled(if: TestAssets.shouldRun))
    func scales() throws {
        let path = TestAssets.image("cat_720p.jpg")
        let exact = try ImageDecoder.decode(contentsOfFile: path)
        let half = try ImageDecoder.decode(contentsOfFile: path, reducedTo: (300, 300))
        let halfSizes: [Int] = [half.bitmap.width, half.bitmap.height, half.scale, half.fileWidth, half.fileHeight]
        #expect(halfSizes == [640, 360, 2, 1280, 720])
        let quarter = try ImageDecoder.decode(contentsOfFile: path, reducedTo: (100, 100))
        let quarterSizes: [Int] = [quarter.bitmap.width, quarter.bitmap.height, quarter.scale]
        #expect(quarterSizes == [320, 180, 4])
        let eighth = try ImageDecoder.decode(contentsOfFile: path, reducedTo: (1, 1))
        let eighthSizes: [Int] = [eighth.bitmap.width, eighth.bitmap.height, eighth.scale]
        #expect(eighthSizes == [160, 90, 8])
        let full = try ImageDecoder.decode(contentsOfFile: path, reducedTo: (1000, 1000))
        #expect(full.scale == 1 && full.bitmap.pixels == exact.bitmap.pixels)
        // The reduced picture is the same picture: its mean colour within a few levels of the exact one's.
        func mean(_ b: Bitmap) -> [Double] {
            var sums = [0.0, 0.0, 0.0]
            for y in 0..<b.height {
                for x in 0..<b.width { for c in 0..<3 { sums[c] += Double(b.pixels[y * b.bytesPerRow + x * 3 + c]) } }
            }
            return sums.map { $0 / Double(b.width * b.height) }
        }
        for (a, b) in zip(mean(half.bitmap), mean(exact.bitmap)) { #expect(abs(a - b) < 2) }
    }

    @Test("PNG and CMYK files decode exactly; a corrupt JPEG is a typed error")
    func exactFallbacks() throws {
        let cmyk = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/jpeg-damaged/cmyk.jpg").path
        let reduced = try ImageDecoder.decode(contentsOfFile: cmyk, reducedTo: (1, 1))
        let exact = try ImageDecoder.decode(contentsOfFile: cmyk)
        #expect(reduced.scale == 1 && reduced.bitmap.pixels == exact.bitmap.pixels)
        if TestAssets.shouldRun {
            let png = try ImageDecoder.decode(contentsOfFile: TestAssets.image("bird.png"), reducedTo: (1, 1))
            #expect(png.scale == 1)
        }
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("vt-reduced-\(getpid()).jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x03, 0x01]).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        #expect(throws: ImagingError.self) { try ImageDecoder.decode(contentsOfFile: bad.path, reducedTo: (1, 1)) }
    }
}
