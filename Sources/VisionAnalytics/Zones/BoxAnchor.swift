/// Which point of a box decides where an object is, for lines and zones: the bottom centre by
/// default (where a person or a car touches the ground, as DeepStream and supervision use).
/// The raw values are the command line's spellings.
public enum BoxAnchor: String, Sendable, CaseIterable, Codable {
    /// The centre of the box.
    case center
    /// The middle of the left edge.
    case centerLeft = "center-left"
    /// The middle of the right edge.
    case centerRight = "center-right"
    /// The middle of the top edge.
    case topCenter = "top-center"
    /// The top-left corner (the box's origin).
    case topLeft = "top-left"
    /// The top-right corner.
    case topRight = "top-right"
    /// The middle of the bottom edge (the default: where an object stands on the ground).
    case bottomCenter = "bottom-center"
    /// The bottom-left corner.
    case bottomLeft = "bottom-left"
    /// The bottom-right corner.
    case bottomRight = "bottom-right"

    /// The anchor's point in `box`. Midpoints are `(low + high) / 2` of the corner coordinates,
    /// the same arithmetic as supervision's `get_anchors_coordinates`, so both give the same bits.
    public func point(in box: Box) -> Point {
        let x1 = box.x, y1 = box.y, x2 = box.x + box.width, y2 = box.y + box.height
        let mx = (x1 + x2) / 2, my = (y1 + y2) / 2
        switch self {
        case .center: return Point(x: mx, y: my)
        case .centerLeft: return Point(x: x1, y: my)
        case .centerRight: return Point(x: x2, y: my)
        case .topCenter: return Point(x: mx, y: y1)
        case .topLeft: return Point(x: x1, y: y1)
        case .topRight: return Point(x: x2, y: y1)
        case .bottomCenter: return Point(x: mx, y: y2)
        case .bottomLeft: return Point(x: x1, y: y2)
        case .bottomRight: return Point(x: x2, y: y2)
        }
    }
}
