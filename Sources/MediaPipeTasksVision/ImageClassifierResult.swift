import Foundation

// @unchecked Sendable: restated from ``TaskResult``; immutable (`let`s of Sendable types).
/// What the image classifier found in one picture or frame (`MPPImageClassifierResult`), a ``TaskResult``.
public final class ImageClassifierResult: TaskResult, @unchecked Sendable {
    /// The classifications of every head.
    public let classificationResult: ClassificationResult

    /// A result for the frame at `timestampInMilliseconds`.
    public init(classificationResult: ClassificationResult, timestampInMilliseconds: Int) {
        self.classificationResult = classificationResult
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Same classificationResult and timestamp (an extension: iOS compares identity).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? ImageClassifierResult else { return false }
        return o.classificationResult == classificationResult && o.timestampInMilliseconds == timestampInMilliseconds
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { timestampInMilliseconds.hashValue }

    /// The result in the seed guide's text format.
    public override var description: String {
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
