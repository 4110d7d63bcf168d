import Foundation

/// Receives the object detector's results in live-stream mode, on a private serial queue, in
/// timestamp order. Frames dropped by the flow control get no call.
///
/// On iOS the method is `@optional`; Swift on Linux has no optional protocol requirements, so it is
/// required here: a delegate whose method is misspelled or has wrong labels or types fails to
/// compile instead of silently never being called.
public protocol ObjectDetectorLiveStreamDelegate: NSObjectProtocol {
    /// One frame's result, or the error that processing it raised (then `result` is nil and
    /// `timestampInMilliseconds` is `Int.min`, MediaPipe's unset timestamp).
    func objectDetector(
        _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
        timestampInMilliseconds: Int, error: Error?)
}
