import CJPEG

/// Decodes JPEGs to RGB exactly as MediaPipe's own decoder (stb_image) does, so that tensors and
/// results match MediaPipe's bit for bit: libjpeg reads the entropy-coded DCT coefficients
/// (baseline, progressive, arithmetic), then this type does stb_image's integer inverse DCT
/// (12-bit constants), its chroma upsampling (triangle filter, `+2`/`+8` rounding) and its
/// YCbCr→RGB conversion (20-bit fixed point).
enum JPEGDecoder {
    static func decode(_ bytes: [UInt8]) throws -> Bitmap {
        var c = vt_jpeg_coefficients()
        let l = ImageDecoder.limits
        let cLimits = vt_jpeg_limits(max_pixels: Int64(l.maxPixels), max_side: Int32(clamping: l.maxSide), max_memory: Int64(l.maxDecoderMemory))
        let status = bytes.withUnsafeBufferPointer { vt_jpeg_read_coefficients($0.baseAddress, $0.count, cLimits, &c) }
        defer { vt_jpeg_free_coefficients(&c) }
        if status == 2 { throw ImagingError(.tooLarge, "\(message(&c)).") }
        guard status == 0 else {
            throw ImagingError(.corruptImage, "Corrupt JPEG: \(message(&c))")
        }
        // libjpeg's warnings (a cut file, a missing EOI, stray bytes) are not fatal: like stb_image,
        // the decoder reads zero bits past the damage and returns the picture.
        let width = Int(c.width), height = Int(c.height)
        let n = Int(c.num_components)
        guard n == 1 || n == 3 || n == 4 else {
            throw ImagingError(.unsupportedFormat, "JPEG with \(n) colour components is not supported (1, 3 or 4 are).")
        }
        let hs = [c.h_samp.0, c.h_samp.1, c.h_samp.2, c.h_samp.3].map(Int.init)
        let vs = [c.v_samp.0, c.v_samp.1, c.v_samp.2, c.v_samp.3].map(Int.init)
        let wb = [c.width_in_blocks.0, c.width_in_blocks.1, c.width_in_blocks.2, c.width_in_blocks.3].map(Int.init)
        let hb = [c.height_in_blocks.0, c.height_in_blocks.1, c.height_in_blocks.2, c.height_in_blocks.3].map(Int.init)
        let coefficients = [c.coefficients.0, c.coefficients.1, c.coefficients.2, c.coefficients.3]
        let quant = withUnsafeBytes(of: &c.quant) { raw in
            (0..<4).map { comp in (0..<64).map { Int32(raw.load(fromByteOffset: (comp * 64 + $0) * 2, as: UInt16.self)) } }
        }
        let hmax = hs.prefix(n).max() ?? 1, vmax = vs.prefix(n).max() ?? 1
        var planes: [(pixels: [UInt8], stride: Int, width: Int, height: Int, hs: Int, vs: Int)] = []
        for k in 0..<n {
            guard let coef = coefficients[k], hs[k] > 0, vs[k] > 0, hmax % hs[k] == 0, vmax % vs[k] == 0 else {
                throw ImagingError(.unsupportedFormat, "JPEG component \(k) has sampling factors \(hs[k])x\(vs[k]) that are not supported.")
            }
            let stride = wb[k] * 8
            var plane = [UInt8](repeating: 0, count: stride * hb[k] * 8)
            plane.withUnsafeMutableBufferPointer { out in
                guard let o = out.baseAddress else { return }
                quant[k].withUnsafeBufferPointer { q in
                    guard let q = q.baseAddress else { return }
                    var block = [Int32](repeating: 0, count: 128)
                    block.withUnsafeMutableBufferPointer { b in
                        guard let b = b.baseAddress else { return }
                        for by in 0..<hb[k] {
                            for bx in 0..<wb[k] {
                                let src = coef + (by * wb[k] + bx) * 64
                                for i in 0..<64 { b[i] = Int32(Int16(truncatingIfNeeded: Int32(src[i]) * q[i])) }
                                idctBlock(b, b + 64, o + by * 8 * stride + bx * 8, stride)
                            }
                        }
                    }
                }
            }
            let compWidth = (width * hs[k] + hmax - 1) / hmax
            let compHeight = (height * vs[k] + vmax - 1) / vmax
            planes.append((plane, stride, compWidth, compHeight, hmax / hs[k], vmax / vs[k]))
        }
        // stb_image's colour rules: 3 components are RGB when their ids are 'R','G','B' or an Adobe
        // marker says "no transform" without a JFIF marker; 4 components are CMYK (Adobe transform 0),
        // YCCK (transform 2) or YCbCr with the fourth ignored.
        let ids = [c.component_id.0, c.component_id.1, c.component_id.2, c.component_id.3]
        let isRGB = n == 3 && (ids.prefix(3) == [82, 71, 66] || (c.adobe_transform == 0 && c.jfif == 0))
        let isCMYK = n == 4 && c.adobe_transform == 0, isYCCK = n == 4 && c.adobe_transform == 2
        if n == 1 {
            var gray = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height { for x in 0..<width { gray[y * width + x] = planes[0].pixels[y * planes[0].stride + x] } }
            return try Bitmap(width: width, height: height, format: .gray8, pixels: gray)
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        // Every component is upsampled to full size, luma included (its factors may be the smaller ones).
        var rows = [[Int32]](repeating: [Int32](repeating: 0, count: width + 16), count: n)
        for y in 0..<height {
            for k in 0..<n {
                upsampleRow(
                    planes[k].pixels, planes[k].stride, planes[k].width, planes[k].height,
                    planes[k].hs, planes[k].vs, outputRow: y, into: &rows[k])
            }
            let o = y * width * 3
            for x in 0..<width {
                let luma = rows[0][x]
                if isRGB || isCMYK {
                    var px = (UInt8(clamping: luma), UInt8(clamping: rows[1][x]), UInt8(clamping: rows[2][x]))
                    if isCMYK {
                        let k = rows[3][x]
                        px = (blinn(Int32(px.0), k), blinn(Int32(px.1), k), blinn(Int32(px.2), k))
                    }
                    rgb[o + x * 3] = px.0
                    rgb[o + x * 3 + 1] = px.1
                    rgb[o + x * 3 + 2] = px.2
                    continue
                }
                let yFixed = (luma << 20) + (1 << 19)
                let cb = rows[1][x] - 128, cr = rows[2][x] - 128
                var r = UInt8(clamping: (yFixed + cr * crToR) >> 20)
                var g = UInt8(clamping: (yFixed + cr * -crToG + ((cb * -cbToG) & ~0xffff)) >> 20)
                var b = UInt8(clamping: (yFixed + cb * cbToB) >> 20)
                if isYCCK {
                    let k = rows[3][x]
                    (r, g, b) = (blinn(255 - Int32(r), k), blinn(255 - Int32(g), k), blinn(255 - Int32(b), k))
                }
                rgb[o + x * 3] = r
                rgb[o + x * 3 + 1] = g
                rgb[o + x * 3 + 2] = b
            }
        }
        return try Bitmap(width: width, height: height, format: .rgb8, pixels: rgb)
    }

    /// stb_image's `x × y / 255` for CMYK and YCCK.
    @inline(__always)
    static func blinn(_ x: Int32, _ y: Int32) -> UInt8 {
        let t = x * y + 128
        return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
    }

    static func message(_ c: inout vt_jpeg_coefficients) -> String {
        withUnsafeBytes(of: &c.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static func fixed(_ x: Float) -> Int32 { Int32(x * 4096 + 0.5) << 8 }
    static let crToR = fixed(1.40200), crToG = fixed(0.71414), cbToG = fixed(0.34414), cbToB = fixed(1.77200)

    /// One output row of a chroma plane, upsampled to full width.
    static func upsampleRow(_ p: [UInt8], _ stride: Int, _ w: Int, _ h: Int, _ hs: Int, _ vs: Int, outputRow y: Int, into out: inout [Int32]) {
        // Vertical neighbours: the nearer chroma row, and the farther one (replicated at edges).
        var near = y / vs, far = near
        if vs == 2 {
            if y % 2 == 0 { far = max(near - 1, 0) } else { far = min(near + 1, h - 1) }
        } else if vs > 2 {
            near = min(y / vs, h - 1); far = near
        }
        near = min(near, h - 1); far = min(far, h - 1)
        let n = near * stride, f = far * stride
        @inline(__always) func v(_ x: Int) -> Int32 {
            vs == 2 ? 3 * Int32(p[n + x]) + Int32(p[f + x]) : Int32(p[n + x])
        }
        switch (hs, vs) {
        case (1, 1):
            for x in 0..<w { out[x] = Int32(p[n + x]) }
        case (1, 2):
            for x in 0..<w { out[x] = (v(x) + 2) >> 2 }
        case (2, 1):
            if w == 1 { out[0] = Int32(p[n]); out[1] = Int32(p[n]); return }
            let i0 = Int32(p[n]), i1 = Int32(p[n + 1])
            out[0] = i0
            out[1] = (i0 * 3 + i1 + 2) >> 2
            var i = 1
            while i < w - 1 {
                let m = 3 * Int32(p[n + i]) + 2
                out[i * 2] = (m + Int32(p[n + i - 1])) >> 2
                out[i * 2 + 1] = (m + Int32(p[n + i + 1])) >> 2
                i += 1
            }
            out[i * 2] = (Int32(p[n + w - 2]) * 3 + Int32(p[n + w - 1]) + 2) >> 2
            out[i * 2 + 1] = Int32(p[n + w - 1])
        case (2, 2):
            if w == 1 { let t = v(0); out[0] = (t + 2) >> 2; out[1] = out[0]; return }
            var t1 = v(0)
            out[0] = (t1 + 2) >> 2
            for i in 1..<w {
                let t0 = t1
                t1 = v(i)
                out[i * 2 - 1] = (3 * t0 + t1 + 8) >> 4
                out[i * 2] = (3 * t1 + t0 + 8) >> 4
            }
            out[w * 2 - 1] = (t1 + 2) >> 2
        default:
            // Other factors: nearest neighbour, as stb_image's generic path.
            for x in 0..<(w * hs) where x < out.count { out[x] = Int32(p[n + min(x / hs, w - 1)]) }
        }
    }

    static func f2f(_ x: Double) -> Int32 { Int32(x * 4096 + 0.5) }
    static let k0 = f2f(0.5411961), k1 = f2f(-1.847759065), k2 = f2f(0.765366865), k3 = f2f(1.175875602)
    static let k4 = f2f(0.298631336), k5 = f2f(2.053119869), k6 = f2f(3.072711026), k7 = f2f(1.501321110)
    static let k8 = f2f(-0.899976223), k9 = f2f(-2.562915447), k10 = f2f(-1.961570560), k11 = f2f(-0.390180644)

    /// One 1-D pass of stb_image's IDCT: returns (x0…x3, t0…t3).
    @inline(__always)
    static func idct1D(
        _ s0: Int32, _ s1: Int32, _ s2: Int32, _ s3: Int32, _ s4: Int32, _ s5: Int32, _ s6: Int32, _ s7: Int32
    )
        -> (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32)
    {
        var p1 = (s2 &+ s6) &* k0
        var t2 = p1 &+ s6 &* k1
        var t3 = p1 &+ s2 &* k2
        var t0 = (s0 &+ s4) &* 4096
        var t1 = (s0 &- s4) &* 4096
        let x0 = t0 &+ t3, x3 = t0 &- t3, x1 = t1 &+ t2, x2 = t1 &- t2
        t0 = s7; t1 = s5; t2 = s3; t3 = s1
        var p3 = t0 &+ t2
        var p4 = t1 &+ t3
        p1 = t0 &+ t3
        var p2 = t1 &+ t2
        let p5 = (p3 &+ p4) &* k3
        t0 = t0 &* k4; t1 = t1 &* k5; t2 = t2 &* k6; t3 = t3 &* k7
        p1 = p5 &+ p1 &* k8
        p2 = p5 &+ p2 &* k9
        p3 = p3 &* k10
        p4 = p4 &* k11
        t3 = t3 &+ p1 &+ p4
        t2 = t2 &+ p2 &+ p3
        t1 = t1 &+ p2 &+ p4
        t0 = t0 &+ p1 &+ p3
        return (x0, x1, x2, x3, t0, t1, t2, t3)
    }

    /// stb_image's integer IDCT of one dequantized block (natural order) into 8×8 pixels.
    static func idctBlock(_ d: UnsafeMutablePointer<Int32>, _ v: UnsafeMutablePointer<Int32>, _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        for i in 0..<8 {
            if d[8 + i] == 0 && d[16 + i] == 0 && d[24 + i] == 0 && d[32 + i] == 0 && d[40 + i] == 0 && d[48 + i] == 0 && d[56 + i] == 0 {
                let dc = d[i] &* 4
                for r in 0..<8 { v[r * 8 + i] = dc }
                continue
            }
            var (x0, x1, x2, x3, t0, t1, t2, t3) = idct1D(d[i], d[8 + i], d[16 + i], d[24 + i], d[32 + i], d[40 + i], d[48 + i], d[56 + i])
            x0 = x0 &+ 512; x1 = x1 &+ 512; x2 = x2 &+ 512; x3 = x3 &+ 512
            v[i] = (x0 &+ t3) >> 10
            v[56 + i] = (x0 &- t3) >> 10
            v[8 + i] = (x1 &+ t2) >> 10
            v[48 + i] = (x1 &- t2) >> 10
            v[16 + i] = (x2 &+ t1) >> 10
            v[40 + i] = (x2 &- t1) >> 10
            v[24 + i] = (x3 &+ t0) >> 10
            v[32 + i] = (x3 &- t0) >> 10
        }
        let bias: Int32 = 65536 + (128 << 17)
        for r in 0..<8 {
            let b = r * 8
            var (x0, x1, x2, x3, t0, t1, t2, t3) = idct1D(v[b], v[b + 1], v[b + 2], v[b + 3], v[b + 4], v[b + 5], v[b + 6], v[b + 7])
            x0 = x0 &+ bias; x1 = x1 &+ bias; x2 = x2 &+ bias; x3 = x3 &+ bias
            let o = out + r * stride
            o[0] = UInt8(clamping: (x0 &+ t3) >> 17)
            o[7] = UInt8(clamping: (x0 &- t3) >> 17)
            o[1] = UInt8(clamping: (x1 &+ t2) >> 17)
            o[6] = UInt8(clamping: (x1 &- t2) >> 17)
            o[2] = UInt8(clamping: (x2 &+ t1) >> 17)
            o[5] = UInt8(clamping: (x2 &- t1) >> 17)
            o[3] = UInt8(clamping: (x3 &+ t0) >> 17)
            o[4] = UInt8(clamping: (x3 &- t0) >> 17)
        }
    }
}
