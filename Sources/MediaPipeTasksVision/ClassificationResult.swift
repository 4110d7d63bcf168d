/// The classifications of every head of a model, for one picture.
public struct ClassificationResult: Equatable, Sendable {
    public let classifications: [Classifications]
    /// 0 unless the model sets it (MediaPipe's behaviour).
    public let timestampInMilliseconds: Int

    public init(classifications: [Classifications], timestampInMilliseconds: Int) {
        self.classifications = classifications
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
