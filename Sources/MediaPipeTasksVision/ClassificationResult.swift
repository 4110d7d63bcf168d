/// The classifications of every head of a model, for one picture.
public struct ClassificationResult: Equatable, Sendable {
    /// One entry per output head, in the model's order.
    public let classifications: [Classifications]
    /// 0 unless the model sets it (MediaPipe's behaviour).
    public let timestampInMilliseconds: Int

    /// A classification result.
    public init(classifications: [Classifications], timestampInMilliseconds: Int) {
        self.classifications = classifications
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
