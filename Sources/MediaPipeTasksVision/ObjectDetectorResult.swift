import Foundation

// @unchecked Sendable: restated from ``TaskResult``; immutable (`let`s of Sendable types).
/// What the object detector found in one picture or frame (`MPPObjectDetectorResult`), a ``TaskResult``.
public final class ObjectDetectorResult: TaskResult, @unchecked Sendable {
    /// The objects found, in the model's order (highest score first for SSD models).
    public let detections: [Detection]

    /// A result for the frame at `timestampInMilliseconds`.
    public init(detections: [Detection], timestampInMilliseconds: Int) {
        self.detections = detections
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Same detections and timestamp (an extension: iOS compares identity).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? ObjectDetectorResult else { return false }
        return o.detections == detections && o.timestampInMilliseconds == timestampInMilliseconds
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { timestampInMilliseconds.hashValue }

    /// The result in the seed guide's text format.
    public override var description: String {
        var lines = ["ObjectDetectorResult:"]
        for (i, d) in detections.enumerated() {
            let b = d.boundingBox
            lines.append(" Detection #\(i):")
            lines.append(
                "  Box: (x: \(Int(b.origin.x)), y: \(Int(b.origin.y)), w: \(Int(b.size.width)), h: "
                    + "\(Int(b.size.height)))"
            )
            lines.append("  Categories:")
            for c in d.categories {
                lines.append("   index : \(c.index)")
                lines.append("   score : \(String(format: "%.5f", c.score))")
                if let name = c.categoryName { lines.append("   class name : \(name)") }
                if let display = c.displayName { lines.append("   display name : \(display)") }
            }
        }
        return lines.joined(separator: "\n")
    }
}
