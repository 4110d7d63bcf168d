/// Receives the image classifier's results in live-stream mode, on a private serial queue, in
/// timestamp order. Frames dropped by the flow control get no call.
public protocol ImageClassifierLiveStreamDelegate: AnyObject {
    /// One frame's result, or the error that processing it raised (then `timestampInMilliseconds`
    /// is `Int.min`, as MediaPipe's unset timestamp).
    func imageClassifier(_ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
                         timestampInMilliseconds: Int, error: Error?)
}

extension ImageClassifierLiveStreamDelegate {
    /// Optional, as in MediaPipe: without it, results are discarded.
    public func imageClassifier(_ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
                                timestampInMilliseconds: Int, error: Error?) {}
}
