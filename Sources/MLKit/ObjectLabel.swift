import Foundation

/// One label of a detected object (`MLKObjectLabel`): text, confidence and class index, from the
/// custom classifier.
public final class ObjectLabel: NSObject, Sendable {
    /// The label, from the classifier's label file.
    public let text: String
    /// The confidence, in 0…1 for the usual models.
    public let confidence: Float
    /// The class index in the classifier's output.
    public let index: Int

    /// A label.
    public init(text: String, confidence: Float, index: Int) {
        self.text = text
        self.confidence = confidence
        self.index = index
    }

    /// `text (index): confidence`.
    public override var description: String { "\(text) (\(index)): \(confidence)" }
}
