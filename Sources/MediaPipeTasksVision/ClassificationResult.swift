import Foundation

/// The classifications of every head of a model, for one picture (`MPPClassificationResult`; not a
/// ``TaskResult``, as on iOS).
public final class ClassificationResult: NSObject, Sendable {
    /// One entry per output head, in the model's order.
    public let classifications: [Classifications]
    /// The input's timestamp, as MediaPipe sets it: the frame's in video and live-stream modes,
    /// 0, 1000, 2000, … for successive image-mode calls (MediaPipe's synthetic timestamps).
    public let timestampInMilliseconds: Int

    /// A classification result.
    public init(classifications: [Classifications], timestampInMilliseconds: Int) {
        self.classifications = classifications
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    /// Same heads and timestamp (an extension: iOS compares identity).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? ClassificationResult else { return false }
        return o.classifications == classifications && o.timestampInMilliseconds == timestampInMilliseconds
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { classifications.count.hashValue ^ timestampInMilliseconds.hashValue }
}
