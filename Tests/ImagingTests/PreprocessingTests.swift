import Foundation
import Imaging
import Testing
import VisionTestSupport

/// A plain, slow reference of the preprocessing: for each tensor pixel, find the point of the
/// stored picture it shows (by explicit per-orientation formulas on the upright picture), and
/// sample it bilinearly in floating point with a clamped border.
enum Reference {
    static func sourcePoint(
        u: Double, v: Double, width W: Double, height H: Double, orientation: ImageOrientation
    ) -> (Double, Double) {
        // (u, v): a point of the upright picture, in upright pixel units.
        let uprightWidth = orientation.swapsDimensions ? H : W
        var u = u
        if orientation.isMirrored { u = uprightWidth - u }
        switch orientation.clockwiseDegrees {
        case 90: return (v, H - u)  // shown turned clockwise: upright (u, v) was stored at (v, H − u)
        case 180: return (W - u, H - v)
        case 270: return (W - v, u)
        default: return (u, v)
        }
    }

    static func tensor(
        _ b: Bitmap, orientation: ImageOrientation, roi: NormalizedRect, width: Int, height: Int
    ) -> [Double] {
        let W = Double(b.width), H = Double(b.height)
        // The ROI's upright frame: its corners, in upright pixel units of the whole picture.
        let upW = orientation.swapsDimensions ? H : W, upH = orientation.swapsDimensions ? W : H
        // Express the ROI (given in stored coordinates) in the upright picture.
        let c = [(roi.x * W, roi.y * H), ((roi.x + roi.width) * W, (roi.y + roi.height) * H)]
        var us: [Double] = [], vs: [Double] = []
        for (x, y) in c {
            let (u, v) = inverse(x: x, y: y, width: W, height: H, orientation: orientation)
            us.append(u); vs.append(v)
        }
        let u0 = us.min() ?? 0, u1 = us.max() ?? upW, v0 = vs.min() ?? 0, v1 = vs.max() ?? upH
        var out: [Double] = []
        for ty in 0..<height {
            for tx in 0..<width {
                let u = u0 + Double(tx) * (u1 - u0) / Double(width)
                let v = v0 + Double(ty) * (v1 - v0) / Double(height)
                let (sx, sy) = sourcePoint(u: u, v: v, width: W, height: H, orientation: orientation)
                let x0 = floor(sx), y0 = floor(sy), fx = sx - x0, fy = sy - y0
                for ch in 0..<3 {
                    func p(_ x: Double, _ y: Double) -> Double {
                        let (r, g, bl) = b.rgb(x: Int(x), y: Int(y))
                        return Double([r, g, bl][ch])
                    }
                    let value =
                        p(x0, y0) * (1 - fx) * (1 - fy) + p(x0 + 1, y0) * fx * (1 - fy)
                        + p(x0, y0 + 1) * (1 - fx) * fy + p(x0 + 1, y0 + 1) * fx * fy
                    out.append(value)
                }
            }
        }
        return out
    }

    static func inverse(
        x: Double, y: Double, width W: Double, height H: Double, orientation: ImageOrientation
    ) -> (Double, Double) {
        let uprightWidth = orientation.swapsDimensions ? H : W
        var u: Double, v: Double
        switch orientation.clockwiseDegrees {
        case 90: (u, v) = (H - y, x)
        case 180: (u, v) = (W - x, H - y)
        case 270: (u, v) = (y, W - x)
        default: (u, v) = (x, y)
        }
        if orientation.isMirrored { u = uprightWidth - u }
        return (u, v)
    }
}

@Suite("Preprocessing pictures into tensors")
struct PreprocessingTests {
    static func testBitmap(width: Int = 37, height: Int = 23, format: PixelFormat = .rgb8) throws -> Bitmap {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 3
                px[o] = UInt8((x * 255) / width)
                px[o + 1] = UInt8((y * 255) / height)
                px[o + 2] = UInt8(((x * 13 + y * 29) * 7) % 256)
            }
        }
        return try Bitmap(width: width, height: height, format: .rgb8, pixels: px)
    }

    @Test(
        "every orientation, with and without a crop, matches the plain reference",
        arguments: ImageOrientation.allCases)
    func orientations(orientation: ImageOrientation) throws {
        let bitmap = try Self.testBitmap()
        let pre = ImagePreprocessor()
        for roi in [NormalizedRect.full, NormalizedRect(x: 0.2, y: 0.1, width: 0.5, height: 0.7)] {
            let ours = try pre.bytes(
                bitmap, orientation: orientation, region: roi,
                format: TensorFormat(width: 16, height: 12, element: .uint8))
            let reference = Reference.tensor(bitmap, orientation: orientation, roi: roi, width: 16, height: 12)
            #expect(ours.count == reference.count)
            // Positions quantized to 1/32 pixel against exact doubles: on this picture's steepest
            // channel (91 levels per pixel) that moves a value by up to ~3; a wrong pixel offset
            // or orientation would move it by tens.
            let worst = zip(ours, reference).map { abs(Double($0) - $1) }.max() ?? 0
            #expect(worst <= 3.5, "\(orientation) \(roi): worst difference \(worst)")
            let mean = zip(ours, reference).map { abs(Double($0) - $1) }.reduce(0, +) / Double(ours.count)
            #expect(mean <= 1.0, "\(orientation) \(roi): mean difference \(mean)")
        }
    }

    @Test("a 90° turn moves the stored picture's corners where the upright picture shows them")
    func cornersLandRight() throws {
        // 2×1 picture: left pixel red, right pixel blue. Shown .right (turned clockwise), red is on top.
        let bitmap = try Bitmap(width: 2, height: 1, format: .rgb8, pixels: [255, 0, 0, 0, 0, 255])
        let pre = ImagePreprocessor()
        let t = try pre.bytes(bitmap, orientation: .right, format: TensorFormat(width: 1, height: 2, element: .uint8))
        #expect(Array(t[0..<3]) == [255, 0, 0])
        #expect(Array(t[3..<6]) == [0, 0, 255])
        let l = try pre.bytes(bitmap, orientation: .left, format: TensorFormat(width: 1, height: 2, element: .uint8))
        #expect(Array(l[0..<3]) == [0, 0, 255])
        let m = try pre.bytes(
            bitmap, orientation: .upMirrored, format: TensorFormat(width: 2, height: 1, element: .uint8))
        #expect(Array(m[0..<3]) == [0, 0, 255])
    }

    @Test("float tensors are (v − mean) / std of the byte tensor")
    func normalization() throws {
        let bitmap = try Self.testBitmap()
        let pre = ImagePreprocessor()
        let bytes = try pre.bytes(bitmap, format: TensorFormat(width: 10, height: 10, element: .uint8))
        let floats = try pre.floats(
            bitmap, format: TensorFormat(width: 10, height: 10, element: .float32(mean: [127.5], std: [127.5])))
        #expect(zip(bytes, floats).allSatisfy { abs((Float($0) - 127.5) / 127.5 - $1) < 1e-6 })
        let perChannel = try pre.floats(
            bitmap,
            format: TensorFormat(width: 10, height: 10, element: .float32(mean: [0, 100, 200], std: [1, 2, 4])))
        for i in 0..<bytes.count {
            let (m, s): (Float, Float) = [(0, 1), (100, 2), (200, 4)][i % 3]
            #expect(abs((Float(bytes[i]) - m) / s - perChannel[i]) < 1e-4)
        }
    }

    @Test("BGRA, RGBA, gray and NV12 pictures give the tensor of their RGB conversion")
    func pixelFormats() throws {
        let rgb = try Self.testBitmap(width: 20, height: 14)
        var rgba = [UInt8](), bgra = [UInt8]()
        for i in 0..<(20 * 14) {
            let (r, g, b) = (rgb.pixels[i * 3], rgb.pixels[i * 3 + 1], rgb.pixels[i * 3 + 2])
            rgba += [r, g, b, 77]
            bgra += [b, g, r, 200]
        }
        let format = TensorFormat(width: 9, height: 7, element: .uint8)
        let pre = ImagePreprocessor()
        let expected = try pre.bytes(rgb, format: format)
        #expect(
            try pre.bytes(try Bitmap(width: 20, height: 14, format: .rgba8, pixels: rgba), format: format) == expected)
        // Row padding must be skipped.
        var padded = [UInt8]()
        for y in 0..<14 { padded += bgra[(y * 80)..<(y * 80 + 80)] + [9, 9, 9, 9, 9, 9, 9, 9] }
        #expect(
            try pre.bytes(
                try Bitmap(width: 20, height: 14, format: .bgra8, pixels: padded, bytesPerRow: 88), format: format)
                == expected)
        let gray = try Bitmap(width: 20, height: 14, format: .gray8, pixels: (0..<280).map { UInt8($0 % 256) })
        let grayEqual = try pre.bytes(gray, format: format) == pre.bytes(gray.convertedToRGB(), format: format)
        #expect(grayEqual)
        var nv12 = (0..<(20 * 14)).map { (i: Int) -> UInt8 in UInt8(i * 3 % 256) }
        nv12 += (0..<(20 * 7)).map { (i: Int) -> UInt8 in UInt8(60 + i * 5 % 120) }
        let yuv = try Bitmap(width: 20, height: 14, format: .nv12, pixels: nv12)
        let yuvEqual = try pre.bytes(yuv, format: format) == pre.bytes(yuv.convertedToRGB(), format: format)
        #expect(yuvEqual)
        // Spot-check the conversion itself: Y=128, Cb=Cr=128 is mid grey.
        #expect(Bitmap.yuvToRGBForTesting(128, 128, 128) == [128, 128, 128])
    }

    /// OpenCV's `warpPerspective` arithmetic written plainly, pixel by pixel, from a matrix: the oracle
    /// both sampling paths must equal byte for byte.
    static func openCV(_ b: Bitmap, matrix: WarpMatrix, width: Int, height: Int) -> [Int32] {
        let block = WarpMatrix.blockWidth(width: width, height: height)
        var out: [Int32] = []
        for y in 0..<height {
            for x in 0..<width {
                let (X, Y) = matrix.fixedSource(x: x, y: y, blockWidth: block, width: width)
                let right = Int32(b.width - 1), bottom = Int32(b.height - 1)
                let x0 = Int(min(max(X >> 5, 0), right)), x1 = Int(min(max((X >> 5) + 1, 0), right))
                let y0 = Int(min(max(Y >> 5, 0), bottom)), y1 = Int(min(max((Y >> 5) + 1, 0), bottom))
                let fx = X & 31, fy = Y & 31
                let w0 = (32 - fy) * (32 - fx) * 32, w1 = (32 - fy) * fx * 32
                let w2 = fy * (32 - fx) * 32, w3 = fy * fx * 32
                let a = b.rgb(x: x0, y: y0), c = b.rgb(x: x1, y: y0), d = b.rgb(x: x0, y: y1), e = b.rgb(x: x1, y: y1)
                out.append((Int32(a.0) * w0 + Int32(c.0) * w1 + Int32(d.0) * w2 + Int32(e.0) * w3 + 16384) >> 15)
                out.append((Int32(a.1) * w0 + Int32(c.1) * w1 + Int32(d.1) * w2 + Int32(e.1) * w3 + 16384) >> 15)
                out.append((Int32(a.2) * w0 + Int32(c.2) * w1 + Int32(d.2) * w2 + Int32(e.2) * w3 + 16384) >> 15)
            }
        }
        return out
    }

    /// MediaPipe's matrices with a W term of 1e-19 (929×512, 512×929, 850 a side) are separable after all.
    @Test("sizes whose matrix is nearly affine: separable, and equal to OpenCV's per-pixel arithmetic")
    func nearlyAffineSizes() throws {
        var random = TestRandom(state: TestRandom.seed(default: 929))
        var sizes = [(929, 512), (512, 929), (850, 400), (850, 777), (928, 512), (930, 512), (640, 480)]
        for _ in 0..<3 {
            sizes.append((Int.random(in: 64...1200, using: &random), Int.random(in: 64...1200, using: &random)))
        }
        var exactZeros = 0
        for (w, h) in sizes {
            let bitmap = try Self.testBitmap(width: w, height: h)
            for (orientation, region) in [
                (ImageOrientation.up, NormalizedRect.full), (.right, .full), (.down, .full),
                (.up, NormalizedRect(x: 0.13, y: 0.07, width: 0.61, height: 0.77)),
            ] {
                // 929 a side into FPNLite's 320×320: positions that are not separable (x moves between some
                // rows), rows sampled one by one with the separable sampler, or pixel by pixel.
                let nonSeparable = w == 929 && region == .full
                for (dw, dh) in [(300, 300), (97, 61)] + (nonSeparable ? [(320, 320)] : []) {
                    let matrix = WarpMatrix.mediaPipe(
                        width: w, height: h, orientation: orientation, roi: region, dstWidth: dw, dstHeight: dh)
                    let zeros = { (i: [Int]) in i.allSatisfy { matrix.m[$0] == 0 } }
                    if zeros([1, 3, 6, 7]) || zeros([0, 4, 6, 7]) {
                        exactZeros += 1
                    }
                    let context = "\(w)×\(h) \(orientation) \(region) → \(dw)×\(dh)"
                    #expect(
                        ImagePreprocessor.isSeparable(
                            width: w, height: h, orientation: orientation, region: region, dstWidth: dw, dstHeight: dh)
                            == (dw != 320),
                        "\(context)")
                    let expected = Self.openCV(bitmap, matrix: matrix, width: dw, height: dh)
                    let pre = ImagePreprocessor()
                    let bytes = try pre.bytes(
                        bitmap, orientation: orientation, region: region,
                        format: TensorFormat(width: dw, height: dh, element: .uint8))
                    let equal = bytes.map(Int32.init) == expected  // (a Bool: a failure prints no megabytes)
                    #expect(equal, "\(context)")
                    let floats = try pre.floats(
                        bitmap, orientation: orientation, region: region,
                        format: TensorFormat(width: dw, height: dh, element: .float32(mean: [127.5], std: [127.5])))
                    // MediaPipe's normalization of each byte: v · (1/s) + (−m/s), with m = s = 127.5 — its
                    // OpenCV's: one fused multiply-add on aarch64, a product then a sum on x86-64.
                    let scale: Float = 1 / 127.5, offset: Float = -127.5 / 127.5
                    #if arch(arm64)
                        let normalized: [Float] = expected.map { offset.addingProduct(Float($0), scale) }
                    #else
                        let normalized: [Float] = expected.map { Float($0) * scale + offset }
                    #endif
                    let floatsEqual = floats == normalized
                    #expect(floatsEqual, "floats \(context)")
                }
            }
        }
        // Some of these matrices have the exact zeros and some only nearly (929 and 850 a side).
        let matrix = WarpMatrix.mediaPipe(
            width: 929, height: 512, orientation: .up, roi: .full, dstWidth: 300, dstHeight: 300)
        #expect(matrix.m[7] != 0 && matrix.m[7].magnitude < 1e-15)
        #expect(exactZeros > 0)
    }

    /// The C sampler (eight pixels at a time, AVX2) against the per-pixel Swift path it stands in for:
    /// the four turns (columns carrying x, or y), odd widths (its one-at-a-time tail), pictures whose last
    /// row's 4-byte reads would pass the end (left to the Swift path), up- and downscaling.
    @Test("the vector sampler gives the per-pixel path's bytes for every turn and size")
    func vectorSampler() throws {
        let sizes: [(w: Int, h: Int, dw: Int, dh: Int)] = [
            (1, 1, 9, 7), (5, 3, 17, 11), (37, 23, 8, 8), (211, 157, 67, 45), (640, 480, 320, 320),
            (929, 512, 300, 300),
            (300, 929, 224, 224), (64, 64, 131, 97),
        ]
        for (w, h, dw, dh) in sizes {
            let bitmap = try Self.testBitmap(width: w, height: h)
            for orientation in [ImageOrientation.up, .right, .down, .left, .upMirrored] {
                let matrix = WarpMatrix.mediaPipe(
                    width: w, height: h, orientation: orientation, roi: .full, dstWidth: dw, dstHeight: dh)
                let fast = ImagePreprocessor.tensor(bitmap, matrix: matrix, dstWidth: dw, dstHeight: dh)
                let plain = ImagePreprocessor.tensor(
                    bitmap, matrix: matrix, dstWidth: dw, dstHeight: dh, vectorized: false)
                let same = fast.bytes == plain.bytes
                #expect(same && fast.separable == plain.separable, "\(w)x\(h) → \(dw)x\(dh), \(orientation)")
            }
        }
    }

    /// Matrices turned by other angles, or in perspective: positions not separable.
    @Test("other matrices take the per-pixel path, equal to OpenCV's per-pixel arithmetic")
    func generalMatrices() throws {
        let bitmap = try Self.testBitmap(width: 211, height: 157)
        var random = TestRandom(state: TestRandom.seed(default: 7))
        var general = 0
        for _ in 0..<12 {
            let angle = Double.random(in: -1...1, using: &random), s = Double.random(in: 0.3...2.5, using: &random)
            let p = Double.random(in: -1e-4...1e-4, using: &random)
            let m = [
                s * cos(angle), -s * sin(angle), Double.random(in: -20...150, using: &random),
                s * sin(angle), s * cos(angle), Double.random(in: -20...120, using: &random),
                p, -p / 2, 1,
            ]
            let (bytes, separable) = ImagePreprocessor.tensor(
                bitmap, matrix: WarpMatrix(m: m), dstWidth: 67, dstHeight: 45)
            if !separable { general += 1 }
            let equal = bytes.map(Int32.init) == Self.openCV(bitmap, matrix: WarpMatrix(m: m), width: 67, height: 45)
            #expect(equal)
        }
        // A matrix with a W term of 1e-19 and nothing else: separable, and the same bytes.
        let nearly = WarpMatrix(m: [1.37, -0.0, 3.2, -0.0, 0.81, 1.5, 0, 6.3e-19, 1])
        let (bytes, separable) = ImagePreprocessor.tensor(bitmap, matrix: nearly, dstWidth: 131, dstHeight: 170)
        #expect(separable)
        let nearlyEqual = bytes.map(Int32.init) == Self.openCV(bitmap, matrix: nearly, width: 131, height: 170)
        #expect(nearlyEqual)
        #expect(general == 12)
    }

    @Test("a reused preprocessor gives the same tensors as fresh ones when the geometry changes between calls")
    func reuse() throws {
        let a = try Self.testBitmap(width: 37, height: 23), b = try Self.testBitmap(width: 20, height: 31)
        let format = TensorFormat(width: 9, height: 7, element: .uint8)
        let shared = ImagePreprocessor()
        let calls: [(Bitmap, ImageOrientation, NormalizedRect)] = [
            (a, .up, .full), (a, .up, .full), (b, .up, .full), (a, .right, .full),
            (a, .right, NormalizedRect(x: 0.1, y: 0.2, width: 0.5, height: 0.5)), (b, .down, .full),
        ]
        for (bitmap, orientation, region) in calls {
            #expect(
                try shared.bytes(bitmap, orientation: orientation, region: region, format: format)
                    == ImagePreprocessor().bytes(bitmap, orientation: orientation, region: region, format: format))
        }
    }

    @Test("several threads write the same tensor as one", arguments: [ImageOrientation.up, .right, .down])
    func threads(orientation: ImageOrientation) throws {
        let bitmap = try Self.testBitmap(width: 300, height: 200)
        let one = ImagePreprocessor(), two = ImagePreprocessor(), three = ImagePreprocessor()
        two.threads = 2
        three.threads = 3
        for format in [
            TensorFormat(width: 64, height: 48, element: .uint8),
            TensorFormat(width: 50, height: 37, element: .float32(mean: [127.5], std: [127.5])),
        ] {
            if case .uint8 = format.element {
                let expected = try one.bytes(bitmap, orientation: orientation, format: format)
                let twoEqual = try two.bytes(bitmap, orientation: orientation, format: format) == expected
                let threeEqual = try three.bytes(bitmap, orientation: orientation, format: format) == expected
                #expect(twoEqual && threeEqual)
            } else {
                let expected = try one.floats(bitmap, orientation: orientation, format: format)
                let twoEqual = try two.floats(bitmap, orientation: orientation, format: format) == expected
                #expect(twoEqual)
            }
        }
    }

    @Test("bad regions, sizes and destinations are typed errors")
    func errors() throws {
        let bitmap = try Self.testBitmap()
        let pre = ImagePreprocessor()
        let format = TensorFormat(width: 4, height: 4, element: .uint8)
        #expect(throws: ImagingError.self) {
            try pre.bytes(bitmap, region: NormalizedRect(x: 0, y: 0, width: 0, height: 1), format: format)
        }
        #expect(throws: ImagingError.self) {
            try pre.bytes(bitmap, region: NormalizedRect(x: .nan, y: 0, width: 1, height: 1), format: format)
        }
        #expect(throws: ImagingError.self) {
            try pre.bytes(bitmap, format: TensorFormat(width: 0, height: 4, element: .uint8))
        }
        #expect(throws: ImagingError.self) {
            try pre.floats(
                bitmap, format: TensorFormat(width: 4, height: 4, element: .float32(mean: [1, 2], std: [1, 2])))
        }
        #expect(throws: ImagingError.self) {
            try pre.floats(bitmap, format: TensorFormat(width: 4, height: 4, element: .float32(mean: [1], std: [0])))
        }
        var small = [UInt8](repeating: 0, count: 10)
        #expect(throws: ImagingError.self) {
            try small.withUnsafeMutableBytes { try pre.process(bitmap, format: format, into: $0) }
        }
        // Absurd regions far outside the picture still give border pixels, not a crash.
        let far = try pre.bytes(
            bitmap, region: NormalizedRect(x: 1e12, y: -1e12, width: 1e9, height: 1e9), format: format)
        #expect(far.count == 48)
    }
}

@Suite("Drawing annotations")
struct CanvasTests {
    @Test("boxes and labels land on the picture, clipped at its edges")
    func drawing() throws {
        var canvas = Canvas(try Bitmap(width: 100, height: 80, format: .rgb8, fill: (0, 0, 0)))
        canvas.strokeRect(x: 10, y: 20, width: 30, height: 40, thickness: 2, color: .white)
        let b = canvas.bitmap
        #expect(b.rgb(x: 10, y: 20) == (255, 255, 255))
        #expect(b.rgb(x: 39, y: 59) == (255, 255, 255))
        #expect(b.rgb(x: 25, y: 40) == (0, 0, 0))
        canvas.drawLabeledBox(x: 90, y: -5, width: 50, height: 50, label: "DOG 73%", color: .forIndex(3))
        canvas.drawText("HI", x: 0, y: 70, scale: 1, color: .white)
        let lit = (0..<8).flatMap { y in (0..<12).map { x in canvas.bitmap.rgb(x: x, y: 70 + y) } }.filter {
            $0 == (255, 255, 255)
        }
        #expect(lit.count > 10)
        #expect(Canvas.textSize("ABC", scale: 2) == (34, 14))
    }
}
