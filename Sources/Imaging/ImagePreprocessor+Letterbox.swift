extension ImagePreprocessor {
    /// Writes a letterboxed tensor (``TensorFormat/Fit/letterbox(padding:)``) the way Ultralytics'
    /// `predict` prepares one: the upright picture resized with OpenCV's `resize(INTER_LINEAR)` on
    /// 8-bit pixels — bit for bit: 11-bit fixed-point weights (edges handled as OpenCV does, see
    /// ``resizeTaps(source:destination:clampWeights:)``), then its SIMD vertical pass
    /// `(((s0 >> 4)·b0 >> 16) + ((s1 >> 4)·b1 >> 16) + 2) >> 2` — centred on the padding grey, as RGB
    /// in either layout, each value converted through a 256-entry table (`v / 255` for float
    /// models, exactly as `torch` divides; quantized models as Ultralytics quantizes).
    func letterbox(
        _ bitmap: Bitmap, orientation: ImageOrientation, region: NormalizedRect, format: TensorFormat,
        into out: UnsafeMutableRawPointer
    ) throws {
        guard case let .letterbox(padding) = format.fit else {
            throw ImagingError(
                .invalidRegion,
                "Planar or quantized tensors are written letterboxed only; this format stretches the picture.")
        }
        guard region == .full else {
            throw ImagingError(
                .invalidRegion,
                "A letterboxed tensor takes the whole picture; a region of interest (\(region)) is not supported.")
        }
        // The upright picture, packed.
        var source = bitmap
        if source.format == .nv12 {
            let needed = bitmap.width * bitmap.height * 3
            if scratch.count != needed { scratch = [UInt8](repeating: 0, count: needed) }
            Self.nv12ToRGB(bitmap, into: &scratch)
            source = try Bitmap(width: bitmap.width, height: bitmap.height, format: .rgb8, pixels: scratch)
        }
        if orientation != .up { source = source.upright(orientation) }
        let channelOffsets: (Int, Int, Int)
        switch source.format {
        case .bgra8: channelOffsets = (2, 1, 0)
        case .gray8: channelOffsets = (0, 0, 0)
        default: channelOffsets = (0, 1, 2)
        }
        let box = Letterbox(
            sourceWidth: source.width, sourceHeight: source.height, width: format.width, height: format.height)
        let tables = try Self.valueTables(format.element)
        let xs = Self.resizeTaps(source: source.width, destination: box.resizedWidth, clampWeights: true)
        let ys = Self.resizeTaps(source: source.height, destination: box.resizedHeight, clampWeights: false)
        let rw = box.resizedWidth, bpp = source.format.bytesPerPixel, stride = source.bytesPerRow
        // Two horizontally resized source rows (int32, 3 channels) that stay while rows repeat, and
        // the padded output line.
        var rows = [Int32](repeating: 0, count: 2 * rw * 3)
        var rowSource = (-1, -1)
        var line = [UInt8](repeating: padding, count: format.width * 3)
        let (c0, c1, c2) = channelOffsets
        source.pixels.withUnsafeBufferPointer { pixels in
            rows.withUnsafeMutableBufferPointer { rowBuffer in
                line.withUnsafeMutableBufferPointer { lineBuffer in
                    guard let src = pixels.baseAddress, let rowBase = rowBuffer.baseAddress,
                        let lineBase = lineBuffer.baseAddress
                    else { return }
                    func horizontal(_ sy: Int, into slot: Int) {
                        if slot == 0 {
                            guard rowSource.0 != sy else { return }
                            rowSource.0 = sy
                        } else {
                            guard rowSource.1 != sy else { return }
                            rowSource.1 = sy
                        }
                        let row = src + sy * stride
                        let d = rowBase + slot * rw * 3
                        for x in 0..<rw {
                            let a = row + xs.first[x] * bpp, b = row + xs.second[x] * bpp
                            let w0 = xs.weights0[x], w1 = xs.weights1[x]
                            d[x * 3] = Int32(a[c0]) &* w0 &+ Int32(b[c0]) &* w1
                            d[x * 3 + 1] = Int32(a[c1]) &* w0 &+ Int32(b[c1]) &* w1
                            d[x * 3 + 2] = Int32(a[c2]) &* w0 &+ Int32(b[c2]) &* w1
                        }
                    }
                    let inside = lineBase + box.left * 3
                    for y in 0..<format.height {
                        let ry = y - box.top
                        if ry >= 0 && ry < box.resizedHeight {
                            // The two rows alternate between the slots so that a row needed again is still there.
                            let s0 = ys.first[ry], s1 = ys.second[ry]
                            let slot0 = rowSource.1 == s0 ? 1 : 0
                            horizontal(s0, into: slot0)
                            horizontal(s1, into: 1 - slot0)
                            let b0 = ys.weights0[ry], b1 = ys.weights1[ry]
                            let r0 = rowBase + slot0 * rw * 3, r1 = rowBase + (1 - slot0) * rw * 3
                            for i in 0..<(rw * 3) {
                                let v = (((r0[i] >> 4) &* b0) >> 16) &+ (((r1[i] >> 4) &* b1) >> 16)
                                inside[i] = UInt8(truncatingIfNeeded: min(max((v &+ 2) >> 2, 0), 255))
                            }
                        } else if y == 0 || y == box.top + box.resizedHeight {
                            inside.update(repeating: padding, count: rw * 3)
                        }
                        Self.writeLine(UnsafePointer(lineBase), y: y, format: format, tables: tables, into: out)
                    }
                }
            }
        }
    }

    /// OpenCV's linear-resize taps for one axis: the two source positions and their 11-bit weights.
    struct ResizeTaps {
        var first: [Int], second: [Int], weights0: [Int32], weights1: [Int32]
    }

    /// Horizontally (`clampWeights`) OpenCV moves a position outside the picture onto its edge
    /// with weights (1, 0); vertically it keeps the weights and reads the edge row twice — which its
    /// rounding makes a different value.
    static func resizeTaps(source: Int, destination: Int, clampWeights: Bool) -> ResizeTaps {
        var taps = ResizeTaps(first: [], second: [], weights0: [], weights1: [])
        let scale = 1 / (Double(destination) / Double(source))
        for d in 0..<destination {
            var f = Float((Double(d) + 0.5) * scale - 0.5)
            var s = Int(f.rounded(.down))
            f -= Float(s)
            if clampWeights && s < 0 { (f, s) = (0, 0) }
            if clampWeights && s >= source - 1 { (f, s) = (0, source - 1) }
            taps.first.append(min(max(s, 0), source - 1))
            taps.second.append(min(max(s + 1, 0), source - 1))
            taps.weights0.append(Int32(((1 - f) * 2048).rounded(.toNearestOrEven)))
            taps.weights1.append(Int32((f * 2048).rounded(.toNearestOrEven)))
        }
        return taps
    }

    /// For each channel, the tensor value of every byte value (channel c at `c·256 + v`).
    enum ValueTables {
        case bytes([UInt8])
        case floats([Float])
    }

    static func valueTables(_ element: TensorFormat.Element) throws -> ValueTables {
        switch element {
        case .uint8:
            return .bytes((0..<768).map { UInt8($0 & 255) })
        case let .float32(mean, std):
            guard mean.count == 1 || mean.count == 3, mean.count == std.count, std.allSatisfy({ abs($0) > 1e-12 })
            else {
                throw ImagingError(
                    .invalidRegion,
                    "Normalization needs 1 or 3 non-zero std values and as many means, got \(mean.count) and "
                        + "\(std.count)."
                )
            }
            return .floats(
                (0..<768).map { i in
                    let c = i / 256, m = mean.count == 1 ? mean[0] : mean[c], s = std.count == 1 ? std[0] : std[c]
                    return (Float(i & 255) - m) / s
                })
        case let .quantized(scale, zeroPoint, signed):
            guard scale.isFinite, scale > 0 else {
                throw ImagingError(.invalidRegion, "The input's quantization scale must be positive, got \(scale).")
            }
            let (lo, hi): (Float, Float) = signed ? (-128, 127) : (0, 255)
            return .bytes(
                (0..<768).map { i -> UInt8 in
                    let q = min(max((Float(i & 255) / 255) / scale + Float(zeroPoint), lo), hi).rounded(.towardZero)
                    return signed ? UInt8(bitPattern: Int8(q)) : UInt8(q)
                })
        }
    }

    /// Writes one RGB line of the padded picture into row `y` of the tensor.
    static func writeLine(
        _ line: UnsafePointer<UInt8>, y: Int, format: TensorFormat, tables: ValueTables,
        into out: UnsafeMutableRawPointer
    ) {
        switch tables {
        case let .bytes(t):
            t.withUnsafeBufferPointer {
                write(line, y: y, format: format, table: $0, into: out.assumingMemoryBound(to: UInt8.self))
            }
        case let .floats(t):
            t.withUnsafeBufferPointer {
                write(line, y: y, format: format, table: $0, into: out.assumingMemoryBound(to: Float.self))
            }
        }
    }

    @inline(__always)
    static func write<T>(
        _ line: UnsafePointer<UInt8>, y: Int, format: TensorFormat, table: UnsafeBufferPointer<T>,
        into out: UnsafeMutablePointer<T>
    ) {
        guard let t = table.baseAddress else { return }
        let w = format.width, channels = format.channels
        if format.layout == .planar {
            let plane = w * format.height
            for c in 0..<3 {
                let d = out + c * plane + y * w, tc = t + c * 256
                for x in 0..<w { d[x] = tc[Int(line[x * 3 + c])] }
            }
            if channels == 4 { (out + 3 * plane + y * w).update(repeating: t[255], count: w) }
        } else {
            let d = out + y * w * channels
            for x in 0..<w {
                for c in 0..<3 { d[x * channels + c] = t[c * 256 + Int(line[x * 3 + c])] }
                if channels == 4 { d[x * channels + 3] = t[255] }
            }
        }
    }
}
