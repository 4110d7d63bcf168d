/// Pixels in memory: width, height, format and row stride. NV12 keeps its CbCr plane after the Y plane.
package struct Bitmap: Equatable, Sendable {
    package let width: Int
    package let height: Int
    package let format: PixelFormat
    /// Bytes from one row to the next (first plane).
    package let bytesPerRow: Int
    /// NV12 only: where the CbCr plane starts in ``pixels``, and its row stride.
    package let chromaOffset: Int
    package let chromaBytesPerRow: Int
    /// The pixel bytes.
    package internal(set) var pixels: [UInt8]

    /// Wraps `pixels` (validated: sizes positive, stride large enough, enough bytes).
    package init(
        width: Int, height: Int, format: PixelFormat, pixels: [UInt8], bytesPerRow: Int? = nil,
        chromaOffset: Int? = nil, chromaBytesPerRow: Int? = nil
    ) throws {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw ImagingError(
                .invalidPixelData, "Image size \(width)x\(height) is invalid: both sides must be between 1 and 32768.")
        }
        let stride = bytesPerRow ?? width * format.bytesPerPixel
        // Strides and offsets come from callers: every size below is overflow-checked.
        guard stride >= width * format.bytesPerPixel, stride <= Int(Int32.max) else {
            throw ImagingError(
                .invalidPixelData,
                "Row stride \(stride) is smaller than \(width) pixels of \(format.bytesPerPixel) bytes, or too large.")
        }
        var needed = stride * (height - 1) + width * format.bytesPerPixel
        var cOffset = 0
        var cStride = 0
        if format == .nv12 {
            guard width % 2 == 0, height % 2 == 0 else {
                throw ImagingError(
                    .invalidPixelData, "NV12 images need an even width and height, got \(width)x\(height).")
            }
            cOffset = chromaOffset ?? stride * height
            cStride = chromaBytesPerRow ?? stride
            guard cStride >= width, cStride <= Int(Int32.max), cOffset <= Int(Int32.max) * 2,
                cOffset >= stride * (height - 1) + width
            else {
                throw ImagingError(
                    .invalidPixelData,
                    "NV12 chroma plane (offset \(cOffset), stride \(cStride)) overlaps the Y plane or is too narrow.")
            }
            needed = cOffset + cStride * (height / 2 - 1) + width
        }
        guard pixels.count >= needed else {
            throw ImagingError(
                .invalidPixelData,
                "A \(width)x\(height) \(format.rawValue) image with row stride \(stride) needs \(needed) bytes, got "
                    + "\(pixels.count)."
            )
        }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.chromaOffset = cOffset
        self.chromaBytesPerRow = cStride
        self.pixels = pixels
    }

    /// A new image filled with one colour.
    package init(
        width: Int, height: Int, format: PixelFormat = .rgb8, fill: (r: UInt8, g: UInt8, b: UInt8) = (0, 0, 0)
    ) throws {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15,
            format != .nv12 || (width % 2 == 0 && height % 2 == 0)
        else {
            throw ImagingError(
                .invalidPixelData,
                "Image size \(width)x\(height) is invalid: both sides must be between 1 and 32768 (even for NV12).")
        }
        let bpp = format.bytesPerPixel
        var px = [UInt8](repeating: 0, count: width * height * bpp)
        if format != .nv12 {
            let pattern: [UInt8]
            switch format {
            case .rgba8: pattern = [fill.r, fill.g, fill.b, 255]
            case .bgra8: pattern = [fill.b, fill.g, fill.r, 255]
            case .rgb8: pattern = [fill.r, fill.g, fill.b]
            default:
                let luma: Int = Int(fill.r) * 299 + Int(fill.g) * 587 + Int(fill.b) * 114
                pattern = [UInt8(luma / 1000)]
            }
            for i in 0..<(width * height) { for c in 0..<bpp { px[i * bpp + c] = pattern[c] } }
        } else {
            px += [UInt8](repeating: 128, count: width * height / 2)
        }
        try self.init(width: width, height: height, format: format, pixels: px)
    }

    /// The RGB value at (x, y) (alpha dropped, gray replicated, NV12 converted with BT.601 full range).
    /// Coordinates outside the image are clamped to its border.
    package func rgb(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let cx = min(max(x, 0), width - 1)
        let cy = min(max(y, 0), height - 1)
        switch format {
        case .rgba8, .rgb8:
            let p = cy * bytesPerRow + cx * format.bytesPerPixel
            return (pixels[p], pixels[p + 1], pixels[p + 2])
        case .bgra8:
            let p = cy * bytesPerRow + cx * 4
            return (pixels[p + 2], pixels[p + 1], pixels[p])
        case .gray8:
            let v = pixels[cy * bytesPerRow + cx]
            return (v, v, v)
        case .nv12:
            let luma = Int(pixels[cy * bytesPerRow + cx])
            let c = chromaOffset + (cy / 2) * chromaBytesPerRow + (cx / 2) * 2
            return Self.yuvToRGB(luma, Int(pixels[c]), Int(pixels[c + 1]))
        }
    }

    /// BT.601 full-range YCbCr → RGB, in 16.16 fixed point.
    @inline(__always)
    static func yuvToRGB(_ y: Int, _ cb: Int, _ cr: Int) -> (UInt8, UInt8, UInt8) {
        let u = cb - 128, v = cr - 128
        let yy = y << 16
        let r = (yy + 91881 * v + 32768) >> 16
        let g = (yy - 22554 * u - 46802 * v + 32768) >> 16
        let b = (yy + 116130 * u + 32768) >> 16
        return (UInt8(clamping: r), UInt8(clamping: g), UInt8(clamping: b))
    }

    /// This image as tightly packed RGB8 (a copy, or self when already RGB8 and packed).
    package func convertedToRGB() -> Bitmap {
        if format == .rgb8 && bytesPerRow == width * 3 { return self }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = rgb(x: x, y: y)
                let o = (y * width + x) * 3
                out[o] = r; out[o + 1] = g; out[o + 2] = b
            }
        }
        // Sizes were validated when self was made.
        return (try? Bitmap(width: width, height: height, format: .rgb8, pixels: out)) ?? self
    }
}

extension Bitmap {
    /// The YCbCr → RGB conversion used for NV12, exposed for tests.
    package static func yuvToRGBForTesting(_ y: Int, _ cb: Int, _ cr: Int) -> [UInt8] {
        let (r, g, b) = yuvToRGB(y, cb, cr)
        return [r, g, b]
    }
}

extension Bitmap {
    /// BGRA/RGBA with premultiplied alpha turned into straight alpha (`c · 255 / a`, rounded);
    /// fully transparent pixels stay black.
    package func unpremultiplied() -> Bitmap {
        guard format == .bgra8 || format == .rgba8 else { return self }
        var out = self
        for y in 0..<height {
            let row = y * bytesPerRow
            for x in 0..<width {
                let p = row + x * 4
                let a = Int(pixels[p + 3])
                guard a < 255 else { continue }
                for c in 0..<3 {
                    out.pixels[p + c] = a == 0 ? 0 : UInt8(min(255, (Int(pixels[p + c]) * 255 + a / 2) / a))
                }
            }
        }
        return out
    }

    /// Video-range NV12 (Y 16…235, CbCr 16…240) rescaled to full range.
    package func expandedFromVideoRange() -> Bitmap {
        guard format == .nv12 else { return self }
        var out = self
        for y in 0..<height {
            for x in 0..<width {
                let p = y * bytesPerRow + x
                out.pixels[p] = UInt8(clamping: ((Int(pixels[p]) - 16) * 255 + 109) / 219)
            }
        }
        for y in 0..<(height / 2) {
            for x in 0..<width {
                let p = chromaOffset + y * chromaBytesPerRow + x
                out.pixels[p] = UInt8(
                    clamping: 128 + ((Int(pixels[p]) - 128) * 255 + (pixels[p] >= 128 ? 112 : -112)) / 224)
            }
        }
        return out
    }
}
