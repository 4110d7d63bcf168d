import Foundation

/// What every task result has (`MPPTaskResult`): the timestamp of the input it belongs to.
// @unchecked Sendable: immutable (one `let`), as are its subclasses here (``ObjectDetectorResult``,
// ``ImageClassifierResult``); it is `open`, as MediaPipe's `MPPTaskResult`, so the compiler cannot check it.
open class TaskResult: NSObject, NSCopying, @unchecked Sendable {
    /// The input's timestamp (image mode: 0, 1000, 2000… per call, as MediaPipe assigns).
    public let timestampInMilliseconds: Int

    /// A result for the input at `timestampInMilliseconds`.
    public init(timestampInMilliseconds: Int) {
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    /// As on iOS, a plain ``TaskResult`` with the same timestamp (subclasses do not override it).
    open func copy(with zone: NSZone? = nil) -> Any {
        TaskResult(timestampInMilliseconds: timestampInMilliseconds)
    }
}
