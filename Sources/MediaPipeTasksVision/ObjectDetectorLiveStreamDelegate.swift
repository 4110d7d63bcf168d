/// Receives the object detector's results in live-stream mode, on a private serial queue, in
/// timestamp order. Frames dropped by the flow control get no call.
public protocol ObjectDetectorLiveStreamDelegate: AnyObject {
    /// One frame's result, or the error that processing it raised (then `timestampInMilliseconds`
    /// is `Int.min`, as MediaPipe's unset timestamp).
    func objectDetector(_ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
                        timestampInMilliseconds: Int, error: Error?)
}

extension ObjectDetectorLiveStreamDelegate {
    /// Optional, as in MediaPipe: without it, results are discarded.
    public func objectDetector(_ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
                               timestampInMilliseconds: Int, error: Error?) {}
}
