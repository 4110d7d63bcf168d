import Foundation

/// What the image classifier found in one picture or frame.
public struct ImageClassifierResult: Equatable, Sendable, CustomStringConvertible {
    /// The classifications of every head.
    public let classificationResult: ClassificationResult
    /// The frame's timestamp (image mode: 0, 1000, 2000… per call, as MediaPipe assigns).
    public let timestampInMilliseconds: Int

    /// A result for the frame at `timestampInMilliseconds`.
    public init(classificationResult: ClassificationResult, timestampInMilliseconds: Int) {
        self.classificationResult = classificationResult
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    /// The result in the seed guide's text format.
    public var description: String {
        var lines = ["ImageClassifierResult:"]
        let heads = classificationResult.classifications
        for (i, c) in heads.enumerated() {
            lines.append(" Classifications #\(i)" + (heads.count == 1 ? " (single classification head):" : ":"))
            lines.append("  head index: \(c.headIndex)")
            for (k, category) in c.categories.enumerated() {
                lines.append("  category #\(k):")
                if let name = category.categoryName { lines.append("   category name: \"\(name)\"") }
                if let display = category.displayName { lines.append("   display name: \"\(display)\"") }
                lines.append("   score: \(String(format: "%.5f", category.score))")
                lines.append("   index: \(category.index)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
