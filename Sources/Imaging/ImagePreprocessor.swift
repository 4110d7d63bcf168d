import CImaging
import Dispatch

/// Turns a picture into a model's input tensor in one pass, the way MediaPipe's CPU path does:
/// the region of interest, turned upright by the orientation, is stretched (no letterbox) to the
/// tensor size with bilinear sampling and a replicated border, converted to RGB and written as
/// bytes or normalized floats straight into the destination buffer.
///
/// Sampling follows OpenCV's `warpPerspective(INTER_LINEAR, BORDER_REPLICATE)` on 8-bit pixels as
/// MediaPipe calls it: a destination pixel (x, y) reads the source at the affine image of (x, y)
/// under the map that sends the rotated ROI's corners to the tensor's corners, quantized to 1/32
/// pixel, with 15-bit fixed-point weights — the positions computed as MediaPipe's OpenCV computes them on
/// each architecture (fused multiply-adds in its aarch64 vector loop: ``WarpMatrix``). The instance keeps
/// scratch memory between calls, so a
/// preprocessor reused frame after frame allocates nothing (NV12 input uses one scratch RGB frame).
package final class ImagePreprocessor {
    /// The RGB frame NV12 input is converted into, kept between calls (both fits use it).
    var scratch: [UInt8] = []
    /// Threads that share the rows of a tensor (1 = the calling thread only). Set it to the
    /// inference thread count: with more than one, each thread writes its own band of rows.
    package var threads: Int = 1

    package init() {}

    /// The source-pixel position sampled for destination pixel (x, y): `origin + x·dx + y·dy`.
    package struct Mapping: Equatable, Sendable {
        package var originX: Double, originY: Double
        package var dxX: Double, dxY: Double
        package var dyX: Double, dyY: Double

        /// Source coordinates for destination (x, y).
        package func source(x: Double, y: Double) -> (Double, Double) {
            (originX + x * dxX + y * dyX, originY + x * dxY + y * dyY)
        }
    }

    /// MediaPipe's mapping for an image of `width`×`height` stored pixels, a region `roi` given in
    /// normalized coordinates of the stored image, shown with `orientation`, to a `dstWidth`×`dstHeight` tensor.
    package static func mapping(
        width: Int, height: Int, orientation: ImageOrientation, roi: NormalizedRect,
        dstWidth: Int, dstHeight: Int
    ) -> Mapping {
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
        case 90: (ux, uy, vx, vy) = (0, -1, 1, 0)  // display x runs up the stored image, display y runs right
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
        return Mapping(
            originX: originX, originY: originY, dxX: edgeUX * sx, dxY: edgeUY * sx, dyX: edgeVX * sy, dyY: edgeVY * sy)
    }

    /// Writes the tensor for `bitmap` into `destination` (at least `format.byteCount` bytes).
    package func process(
        _ bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .full,
        format: TensorFormat, into destination: UnsafeMutableRawBufferPointer
    ) throws {
        guard format.width > 0, format.height > 0, format.channels == 3 || format.channels == 4 else {
            throw ImagingError(
                .invalidRegion,
                "Tensor size \(format.width)x\(format.height)x\(format.channels) is invalid: sizes must be positive "
                    + "and channels 3 or 4."
            )
        }
        guard destination.count >= format.byteCount, let out = destination.baseAddress else {
            throw ImagingError(
                .invalidRegion,
                "The destination holds \(destination.count) bytes; the tensor needs \(format.byteCount).")
        }
        guard region.width > 0, region.height > 0, region.x.isFinite, region.y.isFinite,
            region.width.isFinite, region.height.isFinite
        else {
            throw ImagingError(
                .invalidRegion, "The region of interest must have a positive, finite size, got \(region).")
        }
        if format.fit != .stretch || format.layout != .interleaved {
            try letterbox(bitmap, orientation: orientation, region: region, format: format, into: out)
            return
        }
        var scale: (Float, Float, Float) = (1, 1, 1)
        var offset: (Float, Float, Float) = (0, 0, 0)
        var asFloat = false
        if case let .float32(mean, std) = format.element {
            guard (mean.count == 1 || mean.count == 3), mean.count == std.count else {
                throw ImagingError(
                    .invalidRegion,
                    "Normalization needs 1 or 3 mean and std values of the same count, got \(mean.count) and "
                        + "\(std.count)."
                )
            }
            guard std.allSatisfy({ abs($0) > 1e-12 }) else {
                throw ImagingError(.invalidRegion, "Normalization std values can't be 0.")
            }
            func at(_ a: [Float], _ i: Int) -> Float { a.count == 1 ? a[0] : a[i] }
            // MediaPipe maps [0, 255] to [(0 − m)/s, (255 − m)/s]: v · (1/s) + (−m/s).
            scale = (1 / at(std, 0), 1 / at(std, 1), 1 / at(std, 2))
            offset = (-at(mean, 0) / at(std, 0), -at(mean, 1) / at(std, 1), -at(mean, 2) / at(std, 2))
            asFloat = true
        } else if case .quantized = format.element {
            try letterbox(bitmap, orientation: orientation, region: region, format: format, into: out)
            return
        }
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
        // The sampling plan depends only on the geometry: frames of one video reuse it.
        let key = PlanKey(
            width: bitmap.width, height: bitmap.height, bpp: bpp, stride: stride, orientation: orientation,
            region: region, dstWidth: format.width, dstHeight: format.height)
        let plan: Plan
        if let cached = cachedPlan, cachedKey == key {
            plan = cached
        } else {
            let matrix = WarpMatrix.mediaPipe(
                width: bitmap.width, height: bitmap.height, orientation: orientation, roi: region,
                dstWidth: format.width, dstHeight: format.height)
            plan = Self.plan(
                matrix: matrix, width: bitmap.width, height: bitmap.height, bpp: bpp, stride: stride,
                dstWidth: format.width, dstHeight: format.height)
            cachedKey = key
            cachedPlan = plan
        }
        let bandThreads = threads
        let run = { (src: UnsafePointer<UInt8>, count: Int) in
            Self.warp(
                src: src, srcSize: count, width: bitmap.width, height: bitmap.height, bpp: bpp, stride: stride,
                channels: channelOffsets,
                plan: plan, dstWidth: format.width, dstHeight: format.height, dstChannels: format.channels,
                out: out, asFloat: asFloat, scale: scale, offset: offset, threads: bandThreads)
        }
        if bitmap.format == .nv12 {
            scratch.withUnsafeBufferPointer { if let base = $0.baseAddress { run(base, $0.count) } }
        } else {
            bitmap.pixels.withUnsafeBufferPointer { if let base = $0.baseAddress { run(base, $0.count) } }
        }
    }

    /// Convenience: the tensor as bytes (uint8 format) — allocates; for tests and tools.
    package func bytes(
        _ bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .full, format: TensorFormat
    ) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: format.byteCount)
        try out.withUnsafeMutableBytes {
            try process(bitmap, orientation: orientation, region: region, format: format, into: $0)
        }
        return out
    }

    /// Convenience: the tensor as floats (float32 format) — allocates; for tests and tools.
    package func floats(
        _ bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .full, format: TensorFormat
    ) throws -> [Float] {
        var out = [Float](repeating: 0, count: format.width * format.height * format.channels)
        try out.withUnsafeMutableBytes {
            try process(bitmap, orientation: orientation, region: region, format: format, into: $0)
        }
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

    /// Fixed-point source coordinate (1/32 pixel) for a mapping component, as OpenCV rounds it.
    @inline(__always)
    static func fixed(_ v: Double) -> Int32 {
        Int32(min(max(v * 32, -1e9), 1e9).rounded(.toNearestOrEven))
    }

    /// Per-line sampling data: byte offsets of the two neighbouring samples (clamped to the picture)
    /// and the 1/32-pixel fraction between them.
    struct Taps {
        var first: [Int]
        var second: [Int]
        var fraction: [Int32]
        /// The offsets as Int32 (the vector sampler's column indices), while they all fit.
        var first32: [Int32]
        var second32: [Int32]
        var narrow = true
        /// The largest offset ever set: a bound on every offset (0: the C sampler finds it).
        var largest: Int32 = 0
        init(count: Int) {
            first = [Int](repeating: 0, count: count)
            second = first
            fraction = [Int32](repeating: 0, count: count)
            first32 = fraction
            second32 = fraction
        }
        mutating func set(_ i: Int, fixed: Int32, limit: Int32, step: Int) {
            let s = fixed >> 5
            first[i] = Int(min(max(s, 0), limit)) * step
            second[i] = Int(min(max(s &+ 1, 0), limit)) * step
            fraction[i] = fixed & 31
            if let a = Int32(exactly: first[i]), let b = Int32(exactly: second[i]) {
                (first32[i], second32[i]) = (a, b)
                largest = max(largest, a, b)
            } else {
                narrow = false
            }
        }
    }

    /// Where each destination column and row samples, computed once per geometry.
    enum Plan {
        /// Orientations turn by multiples of 90°: when OpenCV's matrix has exact zeros in the right
        /// places, x follows the tensor's columns and y its rows (up, down) or the other way round
        /// (left, right), and each coordinate is computed once per column or row — with exactly the
        /// arithmetic OpenCV uses per pixel.
        case separable(cols: Taps, rows: Taps)
        /// Any other matrix: OpenCV's arithmetic at every pixel.
        case general(matrix: WarpMatrix, block: Int)
    }

    struct PlanKey: Equatable {
        var width: Int, height: Int, bpp: Int, stride: Int
        var orientation: ImageOrientation
        var region: NormalizedRect
        var dstWidth: Int, dstHeight: Int
    }

    private var cachedKey: PlanKey?
    private var cachedPlan: Plan?

    /// The 8-bit RGB tensor for any matrix (destination pixel → source), through the plan
    /// ``process(_:orientation:region:format:into:)`` would choose: for tests of both sampling paths.
    /// `vectorized: false`: without the C sampler (``vectorRows``), for tests that compare the two.
    package static func tensor(
        _ bitmap: Bitmap, matrix: WarpMatrix, dstWidth: Int, dstHeight: Int, vectorized: Bool = true
    ) -> (bytes: [UInt8], separable: Bool) {
        guard bitmap.format == .rgb8, dstWidth > 0, dstHeight > 0 else { return ([], false) }
        let plan = plan(
            matrix: matrix, width: bitmap.width, height: bitmap.height, bpp: 3, stride: bitmap.bytesPerRow,
            dstWidth: dstWidth, dstHeight: dstHeight)
        var out = [UInt8](repeating: 0, count: dstWidth * dstHeight * 3)
        bitmap.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBytes { dst in
                guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                warp(
                    src: s, srcSize: src.count, width: bitmap.width, height: bitmap.height, bpp: 3,
                    stride: bitmap.bytesPerRow,
                    channels: (0, 1, 2), plan: plan, dstWidth: dstWidth, dstHeight: dstHeight, dstChannels: 3,
                    out: d, asFloat: false, scale: (1, 1, 1), offset: (0, 0, 0), vectorized: vectorized)
            }
        }
        if case .separable = plan { return (out, true) }
        return (out, false)
    }

    /// Whether the positions of MediaPipe's matrix for this geometry are separable (each coordinate
    /// computed once per column or row: a turn by a multiple of 90°, with or without the matrix's exact
    /// zeros) rather than asking for OpenCV's arithmetic at every pixel. Both give the same tensor.
    package static func isSeparable(
        width: Int, height: Int, orientation: ImageOrientation = .up, region: NormalizedRect = .full,
        dstWidth: Int, dstHeight: Int
    ) -> Bool {
        let matrix = WarpMatrix.mediaPipe(
            width: width, height: height, orientation: orientation, roi: region, dstWidth: dstWidth,
            dstHeight: dstHeight)
        if case .separable = plan(
            matrix: matrix, width: width, height: height, bpp: 3, stride: width * 3, dstWidth: dstWidth,
            dstHeight: dstHeight)
        {
            return true
        }
        return false
    }

    static func plan(
        matrix: WarpMatrix, width: Int, height: Int, bpp: Int, stride: Int, dstWidth: Int, dstHeight: Int
    ) -> Plan {
        let maxX = Int32(width - 1), maxY = Int32(height - 1)
        let m = matrix.m
        let block = WarpMatrix.blockWidth(width: dstWidth, height: dstHeight)
        let affine = m[6] == 0 && m[7] == 0
        let c = affine && m[8] != 0 ? 32 / m[8] : 0
        let straight = affine && m[1] == 0 && m[3] == 0
        let swapped = affine && !straight && m[0] == 0 && m[4] == 0
        guard straight || swapped else {
            if let taps = separableTaps(
                matrix: matrix, width: width, height: height, bpp: bpp, stride: stride, dstWidth: dstWidth,
                dstHeight: dstHeight, block: block)
            {
                return .separable(cols: taps.cols, rows: taps.rows)
            }
            return .general(matrix: matrix, block: block)
        }
        var cols = Taps(count: dstWidth), rows = Taps(count: dstHeight)
        for x in 0..<dstWidth {
            let b = (x / block) * block, x1 = x - b, bw = min(block, dstWidth - b), xb = Double(b)
            if straight {
                let v = WarpMatrix.along(m[0] * xb + m[2], m[0], x1, block: bw)
                cols.set(x, fixed: WarpMatrix.round(v * c), limit: maxX, step: bpp)
            } else {
                let v = WarpMatrix.along(m[3] * xb + m[5], m[3], x1, block: bw)
                cols.set(x, fixed: WarpMatrix.round(v * c), limit: maxY, step: stride)
            }
        }
        for y in 0..<dstHeight {
            if straight {
                rows.set(y, fixed: WarpMatrix.round((m[4] * Double(y) + m[5]) * c), limit: maxY, step: stride)
            } else {
                rows.set(y, fixed: WarpMatrix.round((m[1] * Double(y) + m[2]) * c), limit: maxX, step: bpp)
            }
        }
        return .separable(cols: cols, rows: rows)
    }

    /// A matrix without the exact zeros (a W term of 1e-19, as some sizes give) may still give positions
    /// where x follows the columns and y the rows (or the other way round): computed row by row with
    /// OpenCV's arithmetic (``RowPositions``) and checked, the separable plan holds exactly the same
    /// positions. Nil when they are not separable.
    static func separableTaps(
        matrix: WarpMatrix, width: Int, height: Int, bpp: Int, stride: Int, dstWidth: Int, dstHeight: Int,
        block: Int
    ) -> (cols: Taps, rows: Taps)? {
        guard var row = RowPositions(matrix: matrix, width: dstWidth, block: block), dstHeight > 0 else {
            return nil
        }
        var straight = true, swapped = true
        var firstX: [Int32] = [], firstY: [Int32] = []
        var rowY = [Int32](repeating: 0, count: dstHeight), rowX = rowY
        for y in 0..<dstHeight {
            let kept = row.compute(y)
            if y == 0 {
                (firstX, firstY) = (row.fixedX, row.fixedY)
            } else {
                // Kept from the row before, which equalled the first: equal too.
                if straight && !kept.xKept && row.fixedX != firstX { straight = false }
                if swapped && !kept.yKept && row.fixedY != firstY { swapped = false }
            }
            if straight {
                if RowPositions.isUniform(row.fixedY) { rowY[y] = row.fixedY[0] } else { straight = false }
            }
            if swapped {
                if RowPositions.isUniform(row.fixedX) { rowX[y] = row.fixedX[0] } else { swapped = false }
            }
            if !straight && !swapped { return nil }
        }
        let maxX = Int32(width - 1), maxY = Int32(height - 1)
        var cols = Taps(count: dstWidth), rows = Taps(count: dstHeight)
        for x in 0..<dstWidth {
            if straight {
                cols.set(x, fixed: firstX[x], limit: maxX, step: bpp)
            } else {
                cols.set(x, fixed: firstY[x], limit: maxY, step: stride)
            }
        }
        for y in 0..<dstHeight {
            if straight {
                rows.set(y, fixed: rowY[y], limit: maxY, step: stride)
            } else {
                rows.set(y, fixed: rowX[y], limit: maxX, step: bpp)
            }
        }
        return (cols, rows)
    }

    static func warp(
        src: UnsafePointer<UInt8>, srcSize: Int, width: Int, height: Int, bpp: Int, stride: Int,
        channels: (Int, Int, Int),
        plan: Plan, dstWidth: Int, dstHeight: Int, dstChannels: Int,
        out: UnsafeMutableRawPointer, asFloat: Bool, scale: (Float, Float, Float), offset: (Float, Float, Float),
        threads: Int = 1, vectorized: Bool = true
    ) {
        // Bands of rows on several threads: each writes its own part of the output.
        let bands = min(max(threads, 1), max(1, dstHeight / 16))
        if bands > 1 {
            let srcAddress = UInt(bitPattern: src), outAddress = UInt(bitPattern: out)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                guard let s = UnsafePointer<UInt8>(bitPattern: srcAddress),
                    let o = UnsafeMutableRawPointer(bitPattern: outAddress)
                else { return }
                let lo = dstHeight * band / bands, hi = dstHeight * (band + 1) / bands
                warpRows(
                    lo..<hi, src: s, srcSize: srcSize, width: width, height: height, bpp: bpp, stride: stride,
                    channels: channels,
                    plan: plan,
                    dstWidth: dstWidth, dstHeight: dstHeight, dstChannels: dstChannels, out: o, asFloat: asFloat,
                    scale: scale, offset: offset, vectorized: vectorized)
            }
            return
        }
        warpRows(
            0..<dstHeight, src: src, srcSize: srcSize, width: width, height: height, bpp: bpp, stride: stride,
            channels: channels,
            plan: plan,
            dstWidth: dstWidth, dstHeight: dstHeight, dstChannels: dstChannels, out: out, asFloat: asFloat,
            scale: scale, offset: offset, vectorized: vectorized)
    }

    /// Output rows `band` of the tensor.
    static func warpRows(
        _ band: Range<Int>, src: UnsafePointer<UInt8>, srcSize: Int, width: Int, height: Int, bpp: Int, stride: Int,
        channels: (Int, Int, Int),
        plan: Plan, dstWidth: Int, dstHeight: Int, dstChannels: Int,
        out: UnsafeMutableRawPointer, asFloat: Bool, scale: (Float, Float, Float), offset: (Float, Float, Float),
        vectorized: Bool = true
    ) {
        let cols: Taps, rows: Taps
        switch plan {
        case let .general(matrix, block):
            warpGeneral(
                band, src: src, srcSize: vectorized ? srcSize : 0, width: width, height: height, bpp: bpp,
                stride: stride, channels: channels,
                matrix: matrix,
                block: block, dstWidth: dstWidth, dstHeight: dstHeight, dstChannels: dstChannels, out: out,
                asFloat: asFloat, scale: scale, offset: offset)
            return
        case let .separable(c, r):
            (cols, rows) = (c, r)
        }
        sampleSeparable(
            band, src: src, srcSize: vectorized ? srcSize : 0, channels: channels, cols: cols, rows: rows,
            dstWidth: dstWidth, dstChannels: dstChannels, out: out, asFloat: asFloat, scale: scale, offset: offset)
    }

    /// Output rows `band` from the columns' and the rows' taps (`srcSize`: the bytes readable at `src`
    /// for the C sampler; 0 keeps it out).
    static func sampleSeparable(
        _ band: Range<Int>, src: UnsafePointer<UInt8>, srcSize: Int, channels: (Int, Int, Int), cols: Taps, rows: Taps,
        dstWidth: Int, dstChannels: Int, out: UnsafeMutableRawPointer, asFloat: Bool, scale: (Float, Float, Float),
        offset: (Float, Float, Float)
    ) {
        // With a = (first col, first row) … d = (second col, second row), the bilinear weights are
        // the same expressions in both cases: in the swapped case columns carry y and rows carry x,
        // and b and c trade places together with their weights.
        let (c0, c1, c2) = channels
        cols.first.withUnsafeBufferPointer { cf in
            cols.second.withUnsafeBufferPointer { cs in
                cols.fraction.withUnsafeBufferPointer { cw in
                    guard let cf = cf.baseAddress, let cs = cs.baseAddress, let cw = cw.baseAddress else { return }
                    if dstChannels == 3 {
                        // The hot path: the three channels of a sample are packed in 21-bit lanes of one
                        // 64-bit word and weighted together. Weights are multiples of 32, so OpenCV's
                        // (Σ v·w + 2^14) >> 15 equals (Σ v·(w/32) + 512) >> 10, and each lane stays below
                        // 2^18: no carries between lanes, the result is bit-identical (then, for float
                        // models, normalized as `store` does).
                        @inline(__always) func pack(_ p: UnsafePointer<UInt8>) -> UInt64 {
                            UInt64(p[c0]) | UInt64(p[c1]) << 21 | UInt64(p[c2]) << 42
                        }
                        let bias: UInt64 = 512 | 512 << 21 | 512 << 42
                        // Eight pixels at a time in C where the CPU has AVX2 (the same integers); the rows
                        // it leaves (none, or the last ones when its 4-byte reads would pass the end of
                        // the picture) continue here.
                        let done = vectorRows(
                            band, src: src, srcSize: srcSize, channels: channels, cols: cols, rows: rows,
                            dstWidth: dstWidth, out: out, asFloat: asFloat, scale: scale, offset: offset)
                        // Σ w·v = gy·(gx·a + fx·b) + ry·(gx·c + fx·d) exactly (integers, no rounding between).
                        let first = done * dstWidth * 3
                        var o = out.assumingMemoryBound(to: UInt8.self) + first
                        var f = out.assumingMemoryBound(to: Float.self) + first
                        for y in done..<band.upperBound {
                            let rf = src + rows.first[y], rs = src + rows.second[y]
                            let ry = UInt64(truncatingIfNeeded: rows.fraction[y]), gy = 32 &- ry
                            for x in 0..<dstWidth {
                                let fx = UInt64(truncatingIfNeeded: cw[x]), gx = 32 &- fx
                                let cfx = cf[x], csx = cs[x]
                                let top = pack(rf + cfx) &* gx &+ pack(rf + csx) &* fx
                                let bottom = pack(rs + cfx) &* gx &+ pack(rs + csx) &* fx
                                let sum = top &* gy &+ bottom &* ry &+ bias
                                let r = UInt8(truncatingIfNeeded: sum >> 10), g = UInt8(truncatingIfNeeded: sum >> 31)
                                let bl = UInt8(truncatingIfNeeded: sum >> 52)
                                if asFloat {
                                    f[0] = normalize(r, scale.0, offset.0)
                                    f[1] = normalize(g, scale.1, offset.1)
                                    f[2] = normalize(bl, scale.2, offset.2)
                                    f += 3
                                } else {
                                    o[0] = r
                                    o[1] = g
                                    o[2] = bl
                                    o += 3
                                }
                            }
                        }
                        return
                    }
                    let u8 = out.assumingMemoryBound(to: UInt8.self)
                    let f32 = out.assumingMemoryBound(to: Float.self)
                    var o = band.lowerBound * dstWidth * dstChannels
                    for y in band {
                        let rf = src + rows.first[y], rs = src + rows.second[y]
                        let ry = rows.fraction[y], gy = 32 &- ry
                        for x in 0..<dstWidth {
                            let a = rf + cf[x], b = rf + cs[x], c = rs + cf[x], d = rs + cs[x]
                            let fx = cw[x], gx = 32 &- fx
                            let w0 = gy &* gx &* 32, w1 = gy &* fx &* 32, w2 = ry &* gx &* 32, w3 = ry &* fx &* 32
                            let r =
                                (Int32(a[c0]) &* w0 &+ Int32(b[c0]) &* w1 &+ Int32(c[c0]) &* w2 &+ Int32(d[c0]) &* w3
                                    &+ 16384) >> 15
                            let g =
                                (Int32(a[c1]) &* w0 &+ Int32(b[c1]) &* w1 &+ Int32(c[c1]) &* w2 &+ Int32(d[c1]) &* w3
                                    &+ 16384) >> 15
                            let bl =
                                (Int32(a[c2]) &* w0 &+ Int32(b[c2]) &* w1 &+ Int32(c[c2]) &* w2 &+ Int32(d[c2]) &* w3
                                    &+ 16384) >> 15
                            store(
                                r, g, bl, at: o, u8: u8, f32: f32, asFloat: asFloat, dstChannels: dstChannels,
                                scale: scale, offset: offset)
                            o += dstChannels
                        }
                    }
                }
            }
        }
    }

    /// The first row of `band` that ``vt_sample_rows`` (CImaging) did not make: the rows before it are
    /// written.
    static func vectorRows(
        _ band: Range<Int>, src: UnsafePointer<UInt8>, srcSize: Int, channels: (Int, Int, Int), cols: Taps,
        rows: Taps, dstWidth: Int, out: UnsafeMutableRawPointer, asFloat: Bool, scale: (Float, Float, Float),
        offset: (Float, Float, Float)
    ) -> Int {
        guard cols.narrow, let width = Int32(exactly: dstWidth), let y0 = Int32(exactly: band.lowerBound),
            let y1 = Int32(exactly: band.upperBound), let c0 = Int32(exactly: channels.0),
            let c1 = Int32(exactly: channels.1), let c2 = Int32(exactly: channels.2)
        else { return band.lowerBound }
        let scales = [scale.0, scale.1, scale.2], offsets = [offset.0, offset.1, offset.2]
        let done = cols.first32.withUnsafeBufferPointer { cf in
            cols.second32.withUnsafeBufferPointer { cs in
                cols.fraction.withUnsafeBufferPointer { cw in
                    rows.first.withUnsafeBufferPointer { rf in
                        rows.second.withUnsafeBufferPointer { rs in
                            rows.fraction.withUnsafeBufferPointer { rw in
                                rf.withMemoryRebound(to: Int64.self) { rf64 in
                                    rs.withMemoryRebound(to: Int64.self) { rs64 in
                                        vt_sample_rows(
                                            src, srcSize, cf.baseAddress, cs.baseAddress, cw.baseAddress, width,
                                            cols.largest,
                                            rf64.baseAddress, rs64.baseAddress, rw.baseAddress, y0, y1, c0, c1, c2,
                                            asFloat ? 1 : 0, scales, offsets, out)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return min(max(Int(done), band.lowerBound), band.upperBound)
    }

    /// One channel value normalized as MediaPipe's OpenCV (`convertTo` with scale and offset) computes it:
    /// on aarch64 one fused multiply-add (its NEON `cvtScale8u32f` uses `fmla`), elsewhere a product then
    /// a sum (x86-64's). For the [−1, 1] range the two differ by 1–2 ulp for 158 of the 256 values.
    @inline(__always)
    static func normalize<V: BinaryInteger>(_ v: V, _ scale: Float, _ offset: Float) -> Float {
        #if arch(arm64)
            return offset.addingProduct(Float(v), scale)
        #else
            return Float(v) * scale + offset
        #endif
    }

    /// Writes one tensor pixel at element `o`: bytes, or MediaPipe's normalized floats (and the alpha
    /// channel of a 4-channel tensor).
    @inline(__always)
    static func store(
        _ r: Int32, _ g: Int32, _ bl: Int32, at o: Int, u8: UnsafeMutablePointer<UInt8>,
        f32: UnsafeMutablePointer<Float>, asFloat: Bool, dstChannels: Int, scale: (Float, Float, Float),
        offset: (Float, Float, Float)
    ) {
        if asFloat {
            f32[o] = normalize(r, scale.0, offset.0)
            f32[o + 1] = normalize(g, scale.1, offset.1)
            f32[o + 2] = normalize(bl, scale.2, offset.2)
            if dstChannels == 4 { f32[o + 3] = normalize(255, scale.0, offset.0) }
        } else {
            u8[o] = UInt8(truncatingIfNeeded: r)
            u8[o + 1] = UInt8(truncatingIfNeeded: g)
            u8[o + 2] = UInt8(truncatingIfNeeded: bl)
            if dstChannels == 4 { u8[o + 3] = 255 }
        }
    }

    /// Per-pixel path, for matrices whose positions are not separable: OpenCV's arithmetic at every
    /// pixel (``RowPositions``, row by row), then the samples weighted as in the separable path.
    static func warpGeneral(
        _ band: Range<Int>, src: UnsafePointer<UInt8>, srcSize: Int, width: Int, height: Int, bpp: Int, stride: Int,
        channels: (Int, Int, Int),
        matrix: WarpMatrix, block: Int, dstWidth: Int, dstHeight: Int, dstChannels: Int,
        out: UnsafeMutableRawPointer, asFloat: Bool, scale: (Float, Float, Float), offset: (Float, Float, Float)
    ) {
        guard var row = RowPositions(matrix: matrix, width: dstWidth, block: block) else { return }
        let (c0, c1, c2) = channels
        let maxX = Int32(width - 1), maxY = Int32(height - 1)
        let packed = !asFloat && dstChannels == 3
        let u8 = out.assumingMemoryBound(to: UInt8.self)
        let f32 = out.assumingMemoryBound(to: Float.self)
        @inline(__always) func pack(_ p: UnsafePointer<UInt8>) -> UInt64 {
            UInt64(p[c0]) | UInt64(p[c1]) << 21 | UInt64(p[c2]) << 42
        }
        let bias: UInt64 = 512 | 512 << 21 | 512 << 42
        var o = band.lowerBound * dstWidth * dstChannels
        // A row whose y (or x) is the same at every column is sampled as the separable plan samples it:
        // the columns' taps made from the row's x (or y) — again only when those changed — and the row's
        // own tap from its one y (or x).
        var taps = Taps(count: dstWidth), rowTaps = Taps(count: dstHeight)
        var tapsOf = 0  // 0: none valid, 1: made from x (straight), 2: from y (swapped)
        for y in band {
            let kept = row.compute(y)
            // Taps made from positions that changed in this row are stale, whichever way the row goes.
            if (tapsOf == 1 && !kept.xKept) || (tapsOf == 2 && !kept.yKept) { tapsOf = 0 }
            let fy0 = row.fixedY[0], fx0 = row.fixedX[0]
            let straight = RowPositions.isUniform(row.fixedY)
            if straight || RowPositions.isUniform(row.fixedX) {
                if straight && tapsOf != 1 {
                    for x in 0..<dstWidth { taps.set(x, fixed: row.fixedX[x], limit: maxX, step: bpp) }
                    tapsOf = 1
                } else if !straight && tapsOf != 2 {
                    for x in 0..<dstWidth { taps.set(x, fixed: row.fixedY[x], limit: maxY, step: stride) }
                    tapsOf = 2
                }
                if straight {
                    rowTaps.set(y, fixed: fy0, limit: maxY, step: stride)
                } else {
                    rowTaps.set(y, fixed: fx0, limit: maxX, step: bpp)
                }
                sampleSeparable(
                    y..<(y + 1), src: src, srcSize: srcSize, channels: channels, cols: taps, rows: rowTaps,
                    dstWidth: dstWidth,
                    dstChannels: dstChannels, out: out, asFloat: asFloat, scale: scale, offset: offset)
                o += dstWidth * dstChannels
                continue
            }
            row.fixedX.withUnsafeBufferPointer { fixedX in
                row.fixedY.withUnsafeBufferPointer { fixedY in
                    for x in 0..<dstWidth {
                        let sx = fixedX[x] >> 5, sy = fixedY[x] >> 5
                        let left = Int(min(max(sx, 0), maxX)) &* bpp, right = Int(min(max(sx &+ 1, 0), maxX)) &* bpp
                        let top = src + Int(min(max(sy, 0), maxY)) &* stride
                        let bottom = src + Int(min(max(sy &+ 1, 0), maxY)) &* stride
                        let fx = fixedX[x] & 31, fy = fixedY[x] & 31
                        if packed {
                            let ux = UInt64(truncatingIfNeeded: fx), uy = UInt64(truncatingIfNeeded: fy)
                            let gx = 32 &- ux, gy = 32 &- uy
                            let upper = pack(top + left) &* gx &+ pack(top + right) &* ux
                            let lower = pack(bottom + left) &* gx &+ pack(bottom + right) &* ux
                            let sum = upper &* gy &+ lower &* uy &+ bias
                            u8[o] = UInt8(truncatingIfNeeded: sum >> 10)
                            u8[o + 1] = UInt8(truncatingIfNeeded: sum >> 31)
                            u8[o + 2] = UInt8(truncatingIfNeeded: sum >> 52)
                            o += 3
                            continue
                        }
                        let gx = 32 &- fx, gy = 32 &- fy
                        let w0 = gy &* gx &* 32, w1 = gy &* fx &* 32, w2 = fy &* gx &* 32, w3 = fy &* fx &* 32
                        @inline(__always) func sample(_ ch: Int) -> Int32 {
                            (Int32(top[left + ch]) &* w0 &+ Int32(top[right + ch]) &* w1
                                &+ Int32(bottom[left + ch]) &* w2 &+ Int32(bottom[right + ch]) &* w3 &+ 16384) >> 15
                        }
                        let r = sample(c0), g = sample(c1), bl = sample(c2)
                        store(
                            r, g, bl, at: o, u8: u8, f32: f32, asFloat: asFloat, dstChannels: dstChannels, scale: scale,
                            offset: offset)
                        o += dstChannels
                    }
                }
            }
        }
    }
}
