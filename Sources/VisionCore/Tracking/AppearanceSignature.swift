import Imaging

/// A small appearance cue for tracking: a normalized 4×4×4 RGB colour histogram of a box's inner
/// part (the central 60 %, sampled on a grid), compared by histogram intersection.
package enum AppearanceSignature {
    /// Bins per signature.
    package static let bins = 64

    /// The signature of `box` in `bitmap` (packed RGB/RGBA/BGRA/gray; NV12 uses luma only), or nil
    /// when the box has no pixels inside the picture.
    package static func compute(_ bitmap: Bitmap, box: TrackBox, samples: Int = 24) -> [Float]? {
        let inner = TrackBox(
            x: box.x + box.width * 0.2, y: box.y + box.height * 0.2,
            width: box.width * 0.6, height: box.height * 0.6
        )
        .clipped(width: Double(bitmap.width), height: Double(bitmap.height))
        guard inner.width >= 1, inner.height >= 1 else { return nil }
        var histogram = [Float](repeating: 0, count: bins)
        let bpp = bitmap.format.bytesPerPixel
        var total: Float = 0
        bitmap.pixels.withUnsafeBufferPointer { px in
            for sy in 0..<samples {
                let y = min(bitmap.height - 1, Int(inner.y + (Double(sy) + 0.5) * inner.height / Double(samples)))
                for sx in 0..<samples {
                    let x = min(bitmap.width - 1, Int(inner.x + (Double(sx) + 0.5) * inner.width / Double(samples)))
                    let o = y * bitmap.bytesPerRow + x * bpp
                    guard o >= 0, o + bpp <= px.count else { continue }
                    let r: UInt8, g: UInt8, b: UInt8
                    switch bitmap.format {
                    case .rgb8, .rgba8: (r, g, b) = (px[o], px[o + 1], px[o + 2])
                    case .bgra8: (r, g, b) = (px[o + 2], px[o + 1], px[o])
                    case .gray8, .nv12: (r, g, b) = (px[o], px[o], px[o])
                    }
                    histogram[Int(r >> 6) * 16 + Int(g >> 6) * 4 + Int(b >> 6)] += 1
                    total += 1
                }
            }
        }
        guard total > 0 else { return nil }
        return histogram.map { $0 / total }
    }

    /// 1 − histogram intersection: 0 for identical colour distributions, 1 for disjoint ones.
    package static func distance(_ a: [Float], _ b: [Float]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 1 }
        var s: Float = 0
        for i in 0..<a.count { s += min(a[i], b[i]) }
        return Double(max(0, min(1, 1 - s)))
    }
}
