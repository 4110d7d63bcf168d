/// Turns a picture into a model's input tensor in one pass, the way MediaPipe's CPU path does:
/// the region of interest, turned upright by the orientation, is stretched (no letterbox) to the
/// tensor size with bilinear sampling and a replicated border, converted to RGB and written as
/// bytes or normalized floats straight into the destination buffer.
///
/// Sampling follows OpenCV's `warpPerspective(INTER_LINEAR, BORDER_REPLICATE)` on 8-bit pixels as
/// MediaPipe calls it: a destination pixel (x, y) reads the source at the affine image of (x, y)
/// under the map that sends the rotated ROI's corners to the tensor's corners, quantized to 1/32
/// pixel, with 15-bit fixed-point weights. The instance keeps scratch memory between calls, so a
/// preprocessor reused frame after frame allocates nothing (NV12 input uses one scratch RGB frame).
public final class ImagePreprocessor: @unchecked Sendable {
    private var scratch: [UInt8] = []
    /// 32×32 sub-pixel positions × 4 weights, summing to 32768.
    private static let weights: [Int32] = {
        var w = [Int32](repeating: 0, count: 32 * 32 * 4)
        for ay in 0..<32 {
            for ax in 0..<32 {
                let fy = Int32(ay), fx = Int32(ax)
                let base = (ay * 32 + ax) * 4
                w[base] = (32 - fy) * (32 - fx) * 32
                w[base + 1] = (32 - fy) * fx * 32
                w[base + 2] = fy * (32 - fx) * 32
                w[base + 3] = fy * fx * 32
            }
        }
        return w
    }()

    public init() {}

    /// The source-pixel position sampled for destination pixel (x, y): `origin + x·dx + y·dy`.
    public struct Mapping: Equatable, Sendable {
        public var originX: Double, originY: Double
        public var dxX: Double, dxY: Double
        public var dyX: Double, dyY: Double

        /// Source coordinates for destination (x, y).
        public func source(x: Double, y: Double) -> (Double, Double) {
            (originX + x * dxX + y * dyX, originY + x * dxY + y * dyY)
        }
    }

    /// MediaPipe's mapping for an image of `width`×`height` stored pixels, a region `roi` given in
    /// normalized coordinates of the stored image, shown with `orientation`, to a `dstWidth`×`dstHeight` tensor.
    public static func mapping(width: Int, height: Int, orientation: ImageOrientation, roi: NormalizedRect,
                               dstWidth: Int, dstHeight: Int) -> Mapping {
        let w = Double(width), h = Double(height)
        let cx = (roi.x + roi.width / 2) * w
        let cy = (roi.y + roi.height / 2) * h
        let degrees = orientation.clockwiseDegrees
        // The rect's size in its own (upright) frame, in pixels: width and height swap at 90°/270°.
        let rw = orientation.swapsDimensions ? roi.height * h : roi.width * w
        let rh = orientation.swapsDimensions ? roi.width * w : roi.height * h
        // Upright frame axes expressed in stored-pixel coordinates, for a clockwise display turn of `degrees`.
        let (ux, uy, vx, vy): (Double, Double, Double, Double)
        switch degrees {
        case 90: (ux, uy, vx, vy) = (0, -1, 1, 0)   // display x runs up the stored image, display y runs right
        case 180: (ux, uy, vx, vy) = (-1, 0, 0, -1)
        case 270: (ux, uy, vx, vy) = (0, 1, -1, 0)
        default: (ux, uy, vx, vy) = (1, 0, 0, 1)
        }
        // Top-left corner of the upright rect, and its two edges, in stored coordinates.
        var originX = cx - ux * rw / 2 - vx * rh / 2
        var originY = cy - uy * rw / 2 - vy * rh / 2
        var edgeUX = ux * rw, edgeUY = uy * rw
        let edgeVX = vx * rh, edgeVY = vy * rh
        if orientation.isMirrored {
            originX += edgeUX
            originY += edgeUY
            edgeUX = -edgeUX
            edgeUY = -edgeUY
        }
        let sx = 1 / Double(dstWidth), sy = 1 / Double(dstHeight)
        return Mapping(originX: originX, originY: originY, dxX: edgeUX * sx, dxY: edgeUY * sx, dyX: edgeVX * sy, dyY: edgeVY * sy)
    }

    /// Writes the tensor for `bitmap` into `destination` (at least `format.byteCount` bytes).
    public func process(_ bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .full,
                        format: TensorFormat, into destination: UnsafeMutableRawBufferPointer) throws {
        guard format.width > 0, format.height > 0, format.channels == 3 || format.channels == 4 else {
            throw ImagingError(.invalidRegion, "Tensor size \(format.width)x\(format.height)x\(format.channels) is invalid: sizes must be positive and channels 3 or 4.")
        }
        guard destination.count >= format.byteCount, let out = destination.baseAddress else {
            throw ImagingError(.invalidRegion, "The destination holds \(destination.count) bytes; the tensor needs \(format.byteCount).")
        }
        guard region.width > 0, region.height > 0, region.x.isFinite, region.y.isFinite,
              region.width.isFinite, region.height.isFinite else {
            throw ImagingError(.invalidRegion, "The region of interest must have a positive, finite size, got \(region).")
        }
        var scale: (Float, Float, Float) = (1, 1, 1)
        var offset: (Float, Float, Float) = (0, 0, 0)
        var asFloat = false
        if case let .float32(mean, std) = format.element {
            guard (mean.count == 1 || mean.count == 3), mean.count == std.count else {
                throw ImagingError(.invalidRegion, "Normalization needs 1 or 3 mean and std values of the same count, got \(mean.count) and \(std.count).")
            }
            guard std.allSatisfy({ abs($0) > 1e-12 }) else {
                throw ImagingError(.invalidRegion, "Normalization std values can't be 0.")
            }
            func at(_ a: [Float], _ i: Int) -> Float { a.count == 1 ? a[0] : a[i] }
            // MediaPipe maps [0, 255] to [(0 − m)/s, (255 − m)/s]: v · (1/s) + (−m/s).
            scale = (1 / at(std, 0), 1 / at(std, 1), 1 / at(std, 2))
            offset = (-at(mean, 0) / at(std, 0), -at(mean, 1) / at(std, 1), -at(mean, 2) / at(std, 2))
            asFloat = true
        }
        let m = Self.mapping(width: bitmap.width, height: bitmap.height, orientation: orientation, roi: region,
                             dstWidth: format.width, dstHeight: format.height)

        // Source pixel layout: (bytes per pixel, row stride, r/g/b byte offsets).
        var bpp = bitmap.format.bytesPerPixel
        var stride = bitmap.bytesPerRow
        var channelOffsets = (0, 1, 2)
        switch bitmap.format {
        case .bgra8: channelOffsets = (2, 1, 0)
        case .gray8: channelOffsets = (0, 0, 0)
        case .nv12:
            let needed = bitmap.width * bitmap.height * 3
            if scratch.count != needed { scratch = [UInt8](repeating: 0, count: needed) }
            Self.nv12ToRGB(bitmap, into: &scratch)
            bpp = 3
            stride = bitmap.width * 3
        default: break
        }
        let run = { (src: UnsafePointer<UInt8>) in
            Self.warp(src: src, width: bitmap.width, height: bitmap.height, bpp: bpp, stride: stride, channels: channelOffsets,
                      mapping: m, dstWidth: format.width, dstHeight: format.height, dstChannels: format.channels,
                      out: out, asFloat: asFloat, scale: scale, offset: offset)
        }
        if bitmap.format == .nv12 {
            scratch.withUnsafeBufferPointer { if let base = $0.baseAddress { run(base) } }
        } else {
            bitmap.pixels.withUnsafeBufferPointer { if let base = $0.baseAddress { run(base) } }
        }
    }

    /// Convenience: the tensor as bytes (uint8 format) — allocates; for tests and tools.
    public func bytes(_ bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .full, format: TensorFormat) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: format.byteCount)
        try out.withUnsafeMutableBytes { try process(bitmap, orientation: orientation, region: region, format: format, into: $0) }
        return out
    }

    /// Convenience: the tensor as floats (float32 format) — allocates; for tests and tools.
    public func floats(_ bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .full, format: TensorFormat) throws -> [Float] {
        var out = [Float](repeating: 0, count: format.width * format.height * format.channels)
        try out.withUnsafeMutableBytes { try process(bitmap, orientation: orientation, region: region, format: format, into: $0) }
        return out
    }

    static func nv12ToRGB(_ b: Bitmap, into out: inout [UInt8]) {
        b.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                for y in 0..<b.height {
                    let row = s + y * b.bytesPerRow
                    let chroma = s + b.chromaOffset + (y / 2) * b.chromaBytesPerRow
                    let o = d + y * b.width * 3
                    for x in 0..<b.width {
                        let c = (x >> 1) << 1
                        let (r, g, bl) = Bitmap.yuvToRGB(Int(row[x]), Int(chroma[c]), Int(chroma[c + 1]))
                        o[x * 3] = r; o[x * 3 + 1] = g; o[x * 3 + 2] = bl
                    }
                }
            }
        }
    }

    static func warp(src: UnsafePointer<UInt8>, width: Int, height: Int, bpp: Int, stride: Int, channels: (Int, Int, Int),
                     mapping m: Mapping, dstWidth: Int, dstHeight: Int, dstChannels: Int,
                     out: UnsafeMutableRawPointer, asFloat: Bool, scale: (Float, Float, Float), offset: (Float, Float, Float)) {
        let (c0, c1, c2) = channels
        let maxX = width - 1, maxY = height - 1
        let u8 = out.assumingMemoryBound(to: UInt8.self)
        let f32 = out.assumingMemoryBound(to: Float.self)
        weights.withUnsafeBufferPointer { wbuf in
            guard let wt = wbuf.baseAddress else { return }
            var o = 0
            for y in 0..<dstHeight {
                let rowX = m.originX + Double(y) * m.dyX
                let rowY = m.originY + Double(y) * m.dyY
                for x in 0..<dstWidth {
                    // Clamped so that absurd regions cannot overflow the integer conversion.
                    let fx = min(max((rowX + Double(x) * m.dxX) * 32, -1e9), 1e9)
                    let fy = min(max((rowY + Double(x) * m.dxY) * 32, -1e9), 1e9)
                    let X = Int(fx.rounded(.toNearestOrEven)), Y = Int(fy.rounded(.toNearestOrEven))
                    let sx = X >> 5, sy = Y >> 5
                    let w = wt + ((Y & 31) * 32 + (X & 31)) * 4
                    let w0 = Int(w[0]), w1 = Int(w[1]), w2 = Int(w[2]), w3 = Int(w[3])
                    let p00: UnsafePointer<UInt8>, p01: UnsafePointer<UInt8>, p10: UnsafePointer<UInt8>, p11: UnsafePointer<UInt8>
                    if sx >= 0 && sy >= 0 && sx < maxX && sy < maxY {
                        p00 = src + sy * stride + sx * bpp
                        p01 = p00 + bpp
                        p10 = p00 + stride
                        p11 = p10 + bpp
                    } else {
                        let x0 = min(max(sx, 0), maxX), x1 = min(max(sx + 1, 0), maxX)
                        let y0 = min(max(sy, 0), maxY), y1 = min(max(sy + 1, 0), maxY)
                        p00 = src + y0 * stride + x0 * bpp
                        p01 = src + y0 * stride + x1 * bpp
                        p10 = src + y1 * stride + x0 * bpp
                        p11 = src + y1 * stride + x1 * bpp
                    }
                    let r = (Int(p00[c0]) * w0 + Int(p01[c0]) * w1 + Int(p10[c0]) * w2 + Int(p11[c0]) * w3 + 16384) >> 15
                    let g = (Int(p00[c1]) * w0 + Int(p01[c1]) * w1 + Int(p10[c1]) * w2 + Int(p11[c1]) * w3 + 16384) >> 15
                    let b = (Int(p00[c2]) * w0 + Int(p01[c2]) * w1 + Int(p10[c2]) * w2 + Int(p11[c2]) * w3 + 16384) >> 15
                    if asFloat {
                        f32[o] = Float(r) * scale.0 + offset.0
                        f32[o + 1] = Float(g) * scale.1 + offset.1
                        f32[o + 2] = Float(b) * scale.2 + offset.2
                        if dstChannels == 4 { f32[o + 3] = 255 * scale.0 + offset.0 }
                    } else {
                        u8[o] = UInt8(truncatingIfNeeded: r)
                        u8[o + 1] = UInt8(truncatingIfNeeded: g)
                        u8[o + 2] = UInt8(truncatingIfNeeded: b)
                        if dstChannels == 4 { u8[o + 3] = 255 }
                    }
                    o += dstChannels
                }
            }
        }
    }
}
