/// Writes a FlexBuffer map of scalars (all 8 bytes wide), as TFLite custom-op options are stored:
/// enough to build valid and deliberately out-of-range `TFLite_Detection_PostProcess` options.
package enum FlexBufferBuilder {
    /// A scalar map value.
    package enum Value: Sendable {
        case int(Int64), uint(UInt64), float(Double), bool(Bool)
    }

    /// The FlexBuffer bytes of `map`.
    package static func map(_ map: [String: Value]) -> [UInt8] {
        var out: [UInt8] = []
        func put(_ v: UInt64) { for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        func align() { while out.count % 8 != 0 { out.append(0) } }
        let keys = map.keys.sorted()
        var keyPositions: [Int] = []
        for k in keys {
            keyPositions.append(out.count)
            out += Array(k.utf8) + [0]
        }
        align()
        put(UInt64(keys.count))
        let keysVector = out.count
        for p in keyPositions { put(UInt64(out.count - p)) }
        put(UInt64(out.count - keysVector))  // offset back to the keys vector
        put(8)  // its byte width
        put(UInt64(keys.count))
        let values = out.count
        var types: [UInt8] = []
        for k in keys {
            switch map[k] ?? .int(0) {
            case .int(let v): put(UInt64(bitPattern: v)); types.append(1 << 2 | 3)
            case .uint(let v): put(v); types.append(2 << 2 | 3)
            case .float(let v): put(v.bitPattern); types.append(3 << 2 | 3)
            case .bool(let v): put(v ? 1 : 0); types.append(26 << 2 | 3)
            }
        }
        out += types
        align()
        put(UInt64(out.count - values))
        out += [9 << 2 | 3, 8]  // a map of 8-byte children; root width 8
        return out
    }

    /// Valid options for an SSD post-processing op over `classes` classes.
    package static func detectionOptions(_ overrides: [String: Value] = [:], classes: Int = 2) -> [UInt8] {
        var m: [String: Value] = [
            "max_detections": .int(3), "max_classes_per_detection": .int(1), "detections_per_class": .int(100),
            "num_classes": .int(Int64(classes)), "nms_score_threshold": .float(0.1), "nms_iou_threshold": .float(0.6),
            "y_scale": .float(10), "x_scale": .float(10), "h_scale": .float(5), "w_scale": .float(5),
            "use_regular_nms": .bool(false),
        ]
        for (k, v) in overrides { m[k] = v }
        return map(m)
    }
}
