/// The fixed-point (1/32 pixel) source positions OpenCV's `warpPerspective` computes for one tensor
/// row, exactly as ``WarpMatrix/fixedSource(x:y:blockWidth:width:)`` does pixel by pixel (blocks of
/// `block` columns, each started from its first column, the same operations in the same order), but
/// without redoing what the row before already gave: a block's positions are a function of its sums
/// at its first column (x0 or y0, and w0) and of the matrix, so when a block starts from the same sums
/// as in the row before, bit for bit, its positions are kept. MediaPipe's matrices are affine up to
/// rounding (a W term of 1e-19 for some sizes), so x mostly repeats from row to row and y is constant
/// along a row; ``ImagePreprocessor`` uses this to find such matrices separable after all.
struct RowPositions {
    let m0: Double, m1: Double, m2: Double, m3: Double, m4: Double, m5: Double, m6: Double, m7: Double,
        m8: Double
    let width: Int, block: Int, blocks: Int
    /// The row's positions (valid after ``compute(_:)``).
    var fixedX: [Int32], fixedY: [Int32]
    /// Per block, the bit patterns of (x0, w0) and (y0, w0) the kept positions were computed from.
    var keysX: [UInt64], keysY: [UInt64]
    /// Per block (when W varies along it): the runs of columns with one 32 / W, and the w0 they are for.
    var segments: [[(start: Int, w: Double)]]
    var segmentKeys: [UInt64]

    init?(matrix: WarpMatrix, width: Int, block: Int) {
        guard matrix.m.count == 9, width > 0, block > 0 else { return nil }
        let m = matrix.m
        (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        self.width = width
        self.block = block
        blocks = (width + block - 1) / block
        fixedX = [Int32](repeating: 0, count: width)
        fixedY = fixedX
        // Not the pattern of any sum (a NaN's, plus one): the first row computes every block.
        keysX = [UInt64](repeating: Double.nan.bitPattern &+ 1, count: 2 * blocks)
        keysY = keysX
        segments = [[(start: Int, w: Double)]](repeating: [], count: blocks)
        segmentKeys = [UInt64](repeating: Double.nan.bitPattern &+ 1, count: blocks)
    }

    /// Whether every value of `positions` is the same (a branch-free reduction the compiler vectorizes).
    static func isUniform(_ positions: [Int32]) -> Bool {
        positions.withUnsafeBufferPointer { p in
            guard let first = p.first else { return true }
            var differ: Int32 = 0
            for v in p { differ |= v ^ first }
            return differ == 0
        }
    }

    /// Computes row `y`; says whether every block's x (and y) positions were kept from the row before.
    mutating func compute(_ y: Int) -> (xKept: Bool, yKept: Bool) {
        var xKept = true, yKept = true
        let yd = Double(y)
        for b in 0..<blocks {
            let xb = b * block, end = min(xb + block, width), bw = end - xb
            let xbd = Double(xb)
            let x0 = m0 * xbd + m1 * yd + m2, y0 = m3 * xbd + m4 * yd + m5
            let w0 = m6 * xbd + m7 * yd + m8
            let sameX = x0.bitPattern == keysX[2 * b] && w0.bitPattern == keysX[2 * b + 1]
            let sameY = y0.bitPattern == keysY[2 * b] && w0.bitPattern == keysY[2 * b + 1]
            if !sameX { (keysX[2 * b], keysX[2 * b + 1], xKept) = (x0.bitPattern, w0.bitPattern, false) }
            if !sameY { (keysY[2 * b], keysY[2 * b + 1], yKept) = (y0.bitPattern, w0.bitPattern, false) }
            if sameX && sameY { continue }
            if m6 == 0 {
                // W is the same along the block: one division.
                let w = w0 != 0 ? 32 / w0 : 0
                if !sameX {
                    if m0 == 0 {
                        // x0 + (±0 · x1) is the same sum at every column: one position.
                        let v = WarpMatrix.roundEven((x0 + m0 * 0) * w)
                        for x in xb..<end { fixedX[x] = v }
                    } else {
                        for x in xb..<end {
                            fixedX[x] = WarpMatrix.roundEven(WarpMatrix.along(x0, m0, x - xb, block: bw) * w)
                        }
                    }
                }
                if !sameY {
                    if m3 == 0 {
                        let v = WarpMatrix.roundEven((y0 + m3 * 0) * w)
                        for x in xb..<end { fixedY[x] = v }
                    } else {
                        for x in xb..<end {
                            fixedY[x] = WarpMatrix.roundEven(WarpMatrix.along(y0, m3, x - xb, block: bw) * w)
                        }
                    }
                }
            } else {
                // W changes along the block, rarely by more than rounding: the block's runs of one 32 / W
                // depend on w0 alone, kept while w0 is the same.
                if segmentKeys[b] != w0.bitPattern {
                    segmentKeys[b] = w0.bitPattern
                    var runs: [(start: Int, w: Double)] = []
                    var lastW = Double.nan
                    for x in xb..<end {
                        let wx = WarpMatrix.along(w0, m6, x - xb, block: bw)
                        if wx.bitPattern != lastW.bitPattern {
                            lastW = wx
                            runs.append((x, wx != 0 ? 32 / wx : 0))
                        }
                    }
                    segments[b] = runs
                }
                let runs = segments[b]
                for (i, run) in runs.enumerated() {
                    let stop = i + 1 < runs.count ? runs[i + 1].start : end
                    // With m0 (or m3) ±0, x0 + m0 · x1 is the same sum at every column: one position a run.
                    if !sameX {
                        if m0 != 0 {
                            for x in run.start..<stop {
                                fixedX[x] = WarpMatrix.roundEven(WarpMatrix.along(x0, m0, x - xb, block: bw) * run.w)
                            }
                        } else {
                            let v = WarpMatrix.roundEven((x0 + m0 * 0) * run.w)
                            for x in run.start..<stop { fixedX[x] = v }
                        }
                    }
                    if !sameY {
                        if m3 != 0 {
                            for x in run.start..<stop {
                                fixedY[x] = WarpMatrix.roundEven(WarpMatrix.along(y0, m3, x - xb, block: bw) * run.w)
                            }
                        } else {
                            let v = WarpMatrix.roundEven((y0 + m3 * 0) * run.w)
                            for x in run.start..<stop { fixedY[x] = v }
                        }
                    }
                }
            }
        }
        return (xKept, yKept)
    }
}
