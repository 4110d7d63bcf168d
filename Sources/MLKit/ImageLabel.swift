import Foundation

/// One label for a picture (`MLKImageLabel`): the label text, its confidence and its class index.
public final class ImageLabel: NSObject, Sendable {
    /// The label, from the model's label file.
    public let text: String
    /// The confidence, in 0…1 for the usual models.
    public let confidence: Float
    /// The class index in the model's output.
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
