/// An axis-aligned box in pixels (top-left origin), in floating point, as the tracker keeps it.
package struct TrackBox: Equatable, Sendable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    package var centerX: Double { x + width / 2 }
    package var centerY: Double { y + height / 2 }
    package var area: Double { max(0, width) * max(0, height) }

    /// Intersection over union (0 when either box is empty).
    package func iou(_ other: TrackBox) -> Double {
        let ix = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let iy = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        let inter = ix * iy
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }

    /// The fraction of this box's area that lies inside `other`.
    package func fractionInside(_ other: TrackBox) -> Double {
        let ix = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let iy = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        return area > 0 ? ix * iy / area : 0
    }

    /// The part of the box inside a `width`×`height` frame, as a fraction of the box's area.
    package func visibleFraction(width frameWidth: Double, height frameHeight: Double) -> Double {
        guard area > 0 else { return 0 }
        let ix = max(0, min(x + width, frameWidth) - max(x, 0))
        let iy = max(0, min(y + height, frameHeight) - max(y, 0))
        return ix * iy / area
    }

    /// The box clipped to a `width`×`height` frame.
    package func clipped(width frameWidth: Double, height frameHeight: Double) -> TrackBox {
        let x0 = min(max(x, 0), frameWidth), y0 = min(max(y, 0), frameHeight)
        let x1 = min(max(x + width, 0), frameWidth), y1 = min(max(y + height, 0), frameHeight)
        return TrackBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// True when every coordinate is finite.
    package var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }
}
