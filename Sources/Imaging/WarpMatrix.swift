import Foundation

/// The matrix MediaPipe's CPU preprocessing samples with, computed with OpenCV's exact arithmetic,
/// so that rounding ties fall the same way and tensors match bit for bit:
/// the region of interest becomes an OpenCV `RotatedRect` (float), its corners come from
/// `RotatedRect::points` (float, with `sin`/`cos` of the angle in double), `getPerspectiveTransform`
/// solves its 8×8 system by LU with partial pivoting (double), and `warpPerspective` inverts the
/// result with the 3×3 adjugate formula. ``ImagePreprocessor`` then evaluates it per pixel in
/// OpenCV's order (blocks of columns; on aarch64 fused where ``fused(_:block:)`` says).
package struct WarpMatrix: Equatable, Sendable {
    /// Row-major 3×3: destination pixel (x, y, 1) → source (X, Y, W).
    package var m: [Double]

    package init(m: [Double]) { self.m = m }

    /// The matrix for `roi` (normalized, in stored-pixel coordinates) of a `width`×`height` picture
    /// shown with `orientation`, mapped onto a `dstWidth`×`dstHeight` tensor.
    package static func mediaPipe(
        width: Int, height: Int, orientation: ImageOrientation, roi: NormalizedRect,
        dstWidth: Int, dstHeight: Int
    ) -> WarpMatrix {
        // NormalizedRect as the task layer fills it (float fields), width/height swapped and
        // rescaled by the aspect ratio for 90°/270° turns.
        let w = Double(width), h = Double(height)
        let xCenter = Float(roi.x + roi.width / 2), yCenter = Float(roi.y + roi.height / 2)
        var nw = Float(roi.width), nh = Float(roi.height)
        if orientation.swapsDimensions {
            nw = Float(roi.height * h / w)
            nh = Float(roi.width * w / h)
        }
        // Clockwise display turn → MediaPipe's rotation (radians, float): .right 270°, .down 180°, .left 90°.
        let degrees: Double
        switch orientation.clockwiseDegrees {
        case 90: degrees = 270
        case 180: degrees = 180
        case 270: degrees = 90
        default: degrees = 0
        }
        let rotation = Float(degrees * Double.pi / 180)
        // ImageToTensor: RotatedRect in pixels (float), angle in degrees (float).
        let cx = xCenter * Float(width), cy = yCenter * Float(height)
        let rw = nw * Float(width), rh = nh * Float(height)
        let angle = Float(Double(rotation * 180) / Double.pi)
        let points = Self.boxPoints(cx: cx, cy: cy, width: rw, height: rh, angle: angle)
        let dw = Float(dstWidth), dh = Float(dstHeight)
        let dst: [(Float, Float)] = [(0, dh), (0, 0), (dw, 0), (dw, dh)]
        var forward = perspectiveTransform(src: points, dst: dst)
        if orientation.isMirrored {
            // Mirror the upright picture: destination x → width − x (not a MediaPipe case).
            forward = [
                forward[0], forward[1], forward[2], forward[3], forward[4], forward[5], forward[6], forward[7],
                forward[8],
            ]
            let flip: [Double] = [-1, 0, Double(dstWidth), 0, 1, 0, 0, 0, 1]
            forward = multiply(flip, forward)
        }
        return WarpMatrix(m: invert3x3(forward))
    }

    /// OpenCV's `RotatedRect::points`, in float.
    static func boxPoints(cx: Float, cy: Float, width: Float, height: Float, angle: Float) -> [(Float, Float)] {
        let radians = Double(angle) * Double.pi / 180
        let b = Float(cos(radians)) * 0.5
        let a = Float(sin(radians)) * 0.5
        // All four corners from the centre (current OpenCV; older releases mirrored p0/p1 through
        // the centre, which rounds differently).
        let p0 = (cx - a * height - b * width, cy + b * height - a * width)
        let p1 = (cx + a * height - b * width, cy - b * height - a * width)
        let p2 = (cx + a * height + b * width, cy - b * height + a * width)
        let p3 = (cx - a * height + b * width, cy + b * height + a * width)
        return [p0, p1, p2, p3]
    }

    /// OpenCV's `getPerspectiveTransform` (DECOMP_LU).
    static func perspectiveTransform(src: [(Float, Float)], dst: [(Float, Float)]) -> [Double] {
        var a = [Double](repeating: 0, count: 64)
        var b = [Double](repeating: 0, count: 8)
        for i in 0..<4 {
            a[i * 8 + 0] = Double(src[i].0); a[(i + 4) * 8 + 3] = Double(src[i].0)
            a[i * 8 + 1] = Double(src[i].1); a[(i + 4) * 8 + 4] = Double(src[i].1)
            a[i * 8 + 2] = 1; a[(i + 4) * 8 + 5] = 1
            a[i * 8 + 6] = Double(-src[i].0 * dst[i].0)
            a[i * 8 + 7] = Double(-src[i].1 * dst[i].0)
            a[(i + 4) * 8 + 6] = Double(-src[i].0 * dst[i].1)
            a[(i + 4) * 8 + 7] = Double(-src[i].1 * dst[i].1)
            b[i] = Double(dst[i].0)
            b[i + 4] = Double(dst[i].1)
        }
        guard luSolve(&a, &b, 8) else { return [1, 0, 0, 0, 1, 0, 0, 0, 1] }
        return b + [1]
    }

    /// OpenCV's `LUImpl` for one right-hand side; false for a singular system.
    static func luSolve(_ a: inout [Double], _ b: inout [Double], _ m: Int) -> Bool {
        let eps = Double.ulpOfOne * 100
        for i in 0..<m {
            var k = i
            for j in (i + 1)..<max(i + 1, m) where abs(a[j * m + i]) > abs(a[k * m + i]) { k = j }
            if abs(a[k * m + i]) < eps { return false }
            if k != i {
                for j in i..<m { a.swapAt(i * m + j, k * m + j) }
                b.swapAt(i, k)
            }
            let d = -1 / a[i * m + i]
            for j in (i + 1)..<max(i + 1, m) {
                let alpha = a[j * m + i] * d
                for k in (i + 1)..<max(i + 1, m) { a[j * m + k] += alpha * a[i * m + k] }
                b[j] += alpha * b[i]
            }
        }
        for i in stride(from: m - 1, through: 0, by: -1) {
            var s = b[i]
            for k in (i + 1)..<max(i + 1, m) { s -= a[i * m + k] * b[k] }
            b[i] = s / a[i * m + i]
        }
        return true
    }

    /// OpenCV's `invert` of a 3×3 double matrix (DECOMP_LU → adjugate over determinant).
    static func invert3x3(_ s: [Double]) -> [Double] {
        func m(_ r: Int, _ c: Int) -> Double { s[r * 3 + c] }
        var d =
            m(0, 0) * (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1))
            - m(0, 1) * (m(1, 0) * m(2, 2) - m(1, 2) * m(2, 0))
            + m(0, 2) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0))
        guard d != 0 else { return [0, 0, 0, 0, 0, 0, 0, 0, 0] }
        d = 1 / d
        return [
            (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1)) * d,
            (m(0, 2) * m(2, 1) - m(0, 1) * m(2, 2)) * d,
            (m(0, 1) * m(1, 2) - m(0, 2) * m(1, 1)) * d,
            (m(1, 2) * m(2, 0) - m(1, 0) * m(2, 2)) * d,
            (m(0, 0) * m(2, 2) - m(0, 2) * m(2, 0)) * d,
            (m(0, 2) * m(1, 0) - m(0, 0) * m(1, 2)) * d,
            (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0)) * d,
            (m(0, 1) * m(2, 0) - m(0, 0) * m(2, 1)) * d,
            (m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0)) * d,
        ]
    }

    static func multiply(_ x: [Double], _ y: [Double]) -> [Double] {
        (0..<9).map { i in
            let r = i / 3, c = i % 3
            return x[r * 3] * y[c] + x[r * 3 + 1] * y[3 + c] + x[r * 3 + 2] * y[6 + c]
        }
    }

    /// The fixed-point (1/32 pixel) source position OpenCV computes for destination (x, y):
    /// blocks of `blockWidth` columns, each started from its first column.
    /// `width` is the destination's: the last block may be narrower (see ``along(_:_:_:block:)``).
    @inline(__always)
    package func fixedSource(x: Int, y: Int, blockWidth: Int, width: Int) -> (Int32, Int32) {
        let xb = (x / blockWidth) * blockWidth, x1 = x - xb, bw = min(blockWidth, width - xb)
        let X0 = m[0] * Double(xb) + m[1] * Double(y) + m[2]
        let Y0 = m[3] * Double(xb) + m[4] * Double(y) + m[5]
        let W0 = m[6] * Double(xb) + m[7] * Double(y) + m[8]
        var w = Self.along(W0, m[6], x1, block: bw)
        w = w != 0 ? 32 / w : 0
        let X = Self.along(X0, m[0], x1, block: bw), Y = Self.along(Y0, m[3], x1, block: bw)
        return (Self.round(X * w), Self.round(Y * w))
    }

    /// Whether OpenCV's `warpPerspective` computes column `x1` of a block `block` columns wide with fused
    /// multiply-adds: MediaPipe's aarch64 OpenCV does in its vector loop, 16 columns at a time from the
    /// block's first (x1 < 16 · ⌊block / 16⌋), and not in the scalar loop after it; its x86-64 build never
    /// does (docs/arm64-float-models.md).
    @inline(__always)
    static func fused(_ x1: Int, block: Int) -> Bool {
        #if arch(arm64)
            return x1 < 16 * (block / 16)
        #else
            return false
        #endif
    }

    /// `base + m · x1` (a block's sum at its first column, advanced to column `x1`) as OpenCV computes it
    /// there: fused or not (``fused(_:block:)``).
    @inline(__always)
    static func along(_ base: Double, _ m: Double, _ x1: Int, block: Int) -> Double {
        fused(x1, block: block) ? base.addingProduct(m, Double(x1)) : base + m * Double(x1)
    }

    /// OpenCV's `warpPerspective` block width for a destination of `width`×`height`.
    package static func blockWidth(width: Int, height: Int) -> Int {
        let bh0 = min(16, height)
        return max(1, min(1024 / max(bh0, 1), width))
    }

    /// ``round(_:)`` without a call into libm (per pixel): once clamped to `Int32`'s range, adding and
    /// subtracting 1.5 · 2^52 rounds half to even (in the default rounding mode, exact below 2^51).
    @inline(__always)
    static func roundEven(_ v: Double) -> Int32 {
        guard !v.isNaN else { return 0 }
        let c = min(max(v, Double(Int32.min)), Double(Int32.max))
        let magic = 6_755_399_441_055_744.0
        return Int32((c + magic) - magic)
    }

    /// `saturate_cast<int>` of a clamped double: round half to even.
    @inline(__always)
    static func round(_ v: Double) -> Int32 {
        guard !v.isNaN else { return 0 }  // OpenCV's cvRound of NaN is undefined; never trap
        let c = min(max(v, Double(Int32.min)), Double(Int32.max))
        return Int32(c.rounded(.toNearestOrEven))
    }
}
