/// A constant-velocity Kalman filter on a box's centre, width and height: four independent
/// (position, velocity) pairs, with noise proportional to the box's size (as in SORT and ByteTrack).
struct KalmanBoxFilter: Sendable {
    /// Mean: centre x, centre y, width, height, then their velocities (pixels per frame).
    private(set) var mean: [Double]
    /// 2×2 covariance per coordinate: (pp, pv, vv).
    private var covariance: [(pp: Double, pv: Double, vv: Double)]

    private static let positionWeight = 1.0 / 20
    private static let velocityWeight = 1.0 / 160

    init(_ box: TrackBox) {
        mean = [box.centerX, box.centerY, box.width, box.height, 0, 0, 0, 0]
        let scale = max(box.width, box.height, 1)
        let p = 2 * Self.positionWeight * scale, v = 10 * Self.velocityWeight * scale
        covariance = Array(repeating: (p * p, 0, v * v), count: 4)
    }

    var box: TrackBox {
        let w = max(mean[2], 1), h = max(mean[3], 1)
        return TrackBox(x: mean[0] - w / 2, y: mean[1] - h / 2, width: w, height: h)
    }

    /// Advances by `steps` frames (≥ 1) with constant velocity.
    mutating func predict(steps: Double = 1) {
        let scale = max(mean[2], mean[3], 1)
        let q = Self.positionWeight * scale, qv = Self.velocityWeight * scale
        for i in 0..<4 {
            mean[i] += steps * mean[i + 4]
            var c = covariance[i]
            // P = F P Fᵀ + Q with F = [[1, t], [0, 1]].
            let pp = c.pp + 2 * steps * c.pv + steps * steps * c.vv
            let pv = c.pv + steps * c.vv
            c = (pp + steps * q * q, pv, c.vv + steps * qv * qv)
            covariance[i] = c
        }
        if mean[2] < 1 { mean[2] = 1; mean[6] = 0 }
        if mean[3] < 1 { mean[3] = 1; mean[7] = 0 }
    }

    /// Corrects with a measured box. With `keepVelocity` (the box may be merged with another
    /// object's), the position and size are corrected but the velocity is left as it was.
    mutating func update(_ box: TrackBox, keepVelocity: Bool = false) {
        let z = [box.centerX, box.centerY, box.width, box.height]
        let scale = max(box.width, box.height, 1)
        let r = Self.positionWeight * scale
        for i in 0..<4 {
            let c = covariance[i]
            let s = c.pp + r * r
            let kp = c.pp / s, kv = keepVelocity ? 0 : c.pv / s
            let innovation = z[i] - mean[i]
            mean[i] += kp * innovation
            mean[i + 4] += kv * innovation
            covariance[i] = ((1 - kp) * c.pp, (1 - kp) * c.pv, c.vv - kv * c.pv)
        }
    }

    /// Keeps the box's size while a track coasts without detections (its centre keeps moving).
    mutating func freezeSize() {
        mean[6] = 0
        mean[7] = 0
    }
}
