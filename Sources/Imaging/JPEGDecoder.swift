import CJPEG
import Foundation

/// Decodes JPEGs to RGB exactly as MediaPipe's own decoder (stb_image) does, so that tensors and
/// results match MediaPipe's bit for bit: libjpeg reads the entropy-coded DCT coefficients
/// (baseline, progressive, arithmetic), then CJPEG's `vt_jpeg_reconstruct` does stb_image's integer
/// inverse DCT (12-bit constants, with the 16-bit wrapping and saturation of the SSE2 form MediaPipe's
/// x86-64 build runs), its chroma upsampling (triangle filter, `+2`/`+8` rounding) and its YCbCr→RGB
/// conversion (20-bit fixed point), with SSE2 on x86-64 and NEON on aarch64 (the same bytes).
package enum JPEGDecoder {
    /// Decodes `bytes`; `simd` false takes the portable C that defines the SIMD kernels (the same
    /// bytes, for the tests).
    package static func decode(_ bytes: [UInt8], simd: Bool = true) throws -> Bitmap {
        var c = vt_jpeg_coefficients()
        let cLimits = cLimits()
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
        let hmax = hs.prefix(n).max() ?? 1, vmax = vs.prefix(n).max() ?? 1
        for k in 0..<n where !(hs[k] > 0 && vs[k] > 0 && hmax % hs[k] == 0 && vmax % vs[k] == 0) {
            throw ImagingError(
                .unsupportedFormat, "JPEG component \(k) has sampling factors \(hs[k])x\(vs[k]) that are not supported."
            )
        }
        // stb_image's colour rules: 3 components are RGB when their ids are 'R','G','B' or an Adobe
        // marker says "no transform" without a JFIF marker; 4 components are CMYK (Adobe transform 0),
        // YCCK (transform 2) or YCbCr with the fourth ignored.
        let ids = [c.component_id.0, c.component_id.1, c.component_id.2, c.component_id.3]
        let kind: Int32
        switch n {
        case 1: kind = Int32(VT_JPEG_GRAY)
        case 3 where ids.prefix(3) == [82, 71, 66] || (c.adobe_transform == 0 && c.jfif == 0): kind = Int32(VT_JPEG_RGB)
        case 4 where c.adobe_transform == 0: kind = Int32(VT_JPEG_CMYK)
        case 4 where c.adobe_transform == 2: kind = Int32(VT_JPEG_YCCK)
        default: kind = Int32(VT_JPEG_YCBCR)
        }
        let channels = n == 1 ? 1 : 3
        var made: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * channels) { buffer, count in
            made = buffer.baseAddress.map { vt_jpeg_reconstruct_path(&c, kind, $0, simd ? 1 : 0) } ?? -1
            count = made == 0 ? width * height * channels : 0
        }
        guard made == 0 else { throw ImagingError(.tooLarge, "Out of memory for a JPEG of \(width)x\(height) pixels.") }
        return try Bitmap(width: width, height: height, format: n == 1 ? .gray8 : .rgb8, pixels: pixels)
    }

    /// A JPEG decoded by libjpeg-turbo at the smallest DCT scale keeping `minimumWidth`×`minimumHeight`
    /// pixels (inexact); nil for what is not a gray or colour JPEG (PNG, CMYK, YCCK).
    /// With `fullSize`, a JPEG no scale can reduce is decoded by libjpeg-turbo at full size (OpenCV's pixels).
    package static func decodeReduced(
        _ bytes: [UInt8], minimumWidth: Int, minimumHeight: Int, fullSize: Bool = false
    ) throws -> ImageDecoder.Decoded? {
        guard bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF else { return nil }
        var image = vt_jpeg_image()
        let cLimits = cLimits()
        let status = bytes.withUnsafeBufferPointer {
            vt_jpeg_decode_scaled(
                $0.baseAddress, $0.count, cLimits, Int32(clamping: max(1, minimumWidth)),
                Int32(clamping: max(1, minimumHeight)), fullSize ? 1 : 0, &image)
        }
        defer { free(image.pixels) }
        let text = withUnsafeBytes(of: &image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch status {
        case 0: break
        case 2: throw ImagingError(.tooLarge, "\(text).")
        case 3: return nil
        default: throw ImagingError(.corruptImage, "Corrupt JPEG: \(text)")
        }
        let width = Int(image.width), height = Int(image.height), channels = Int(image.channels)
        guard let base = image.pixels, width > 0, height > 0, channels == 1 || channels == 3 else {
            throw ImagingError(.corruptImage, "Corrupt JPEG: no pixels decoded.")
        }
        let pixels = Array(UnsafeBufferPointer(start: base, count: width * height * channels))
        let bitmap = try Bitmap(width: width, height: height, format: channels == 1 ? .gray8 : .rgb8, pixels: pixels)
        return ImageDecoder.Decoded(
            bitmap: bitmap, orientation: ImageOrientation(exif: ImageDecoder.exifOrientation(bytes) ?? 1) ?? .up,
            scale: Int(image.denom),
            fileWidth: Int(image.full_width), fileHeight: Int(image.full_height))
    }

    /// ``ImageDecoder/limits`` as the C layer takes them.
    static func cLimits() -> vt_jpeg_limits {
        let l = ImageDecoder.limits
        return vt_jpeg_limits(
            max_pixels: Int64(l.maxPixels), max_side: Int32(clamping: l.maxSide), max_memory: Int64(l.maxDecoderMemory))
    }

    static func message(_ c: inout vt_jpeg_coefficients) -> String {
        withUnsafeBytes(of: &c.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
