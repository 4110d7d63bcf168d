import Foundation

/// What the object detector found in one picture or frame.
public struct ObjectDetectorResult: Equatable, Sendable, CustomStringConvertible {
    /// The objects found, in the model's order (highest score first for SSD models).
    public let detections: [Detection]
    /// The frame's timestamp (image mode: 0, 1000, 2000… per call, as MediaPipe assigns).
    public let timestampInMilliseconds: Int

    /// A result for the frame at `timestampInMilliseconds`.
    public init(detections: [Detection], timestampInMilliseconds: Int) {
        self.detections = detections
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    /// The result in the seed guide's text format.
    public var description: String {
        var lines = ["ObjectDetectorResult:"]
        for (i, d) in detections.enumerated() {
            let b = d.boundingBox
            lines.append(" Detection #\(i):")
            lines.append("  Box: (x: \(Int(b.origin.x)), y: \(Int(b.origin.y)), w: \(Int(b.size.width)), h: \(Int(b.size.height)))")
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
