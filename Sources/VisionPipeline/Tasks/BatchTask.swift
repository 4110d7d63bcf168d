import Imaging
import MLKit
import MediaPipeTasksVision
import Video

/// One of the app's tasks (`detect`, `classify`, `label`, `track`) as the batch and live runners
/// drive it. Used from one thread at a time.
package protocol BatchTask: AnyObject {
    /// The command's name.
    var name: String { get }
    /// Processes a picture (image running mode).
    func picture(_ picture: Picture) throws -> TaskRecord
    /// Processes a frame of video number `video` (video running mode, the container's
    /// timestamps). A new `video` number starts a new video (a fresh detector: timestamps restart).
    func frame(_ frame: VideoFrame, video: Int) throws -> TaskRecord
    /// Whether one item's result depends on earlier items (tracking): such a task runs on one
    /// worker; the others may run several copies side by side.
    var isStateful: Bool { get }
    /// A live-stream session (the API's own frame dropping), or nil when the API has no live-stream
    /// mode (ML Kit): the live runner then drops frames itself by the same rule.
    func liveSession(deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) throws -> LiveSession?
    /// How JPEGs are decoded: MediaPipe's pixels; libjpeg-turbo's (OpenCV's) for YOLO detectors, whose
    /// reference is Ultralytics; reduced for the model's input with `--fast-decode`.
    var jpegDecoding: JPEGDecoding { get }
    /// Called after the last frame of a video, on the thread that ran its frames: what the task
    /// has to say about the whole video (`track`'s line and zone counts), or nil.
    func videoEnded() -> TaskRecord?
    /// Called once every input is done: writes what the task kept for the end (`track`'s outputs).
    func finish() throws
    /// What the run's summary line adds for this task (`track`: its classifier runs), or nil.
    var summaryNote: String? { get }
}

extension BatchTask {
    package var jpegDecoding: JPEGDecoding { .mediaPipe }
    package func videoEnded() -> TaskRecord? { nil }
    package func finish() throws {}
    package var summaryNote: String? { nil }
}

/// A task's live-stream mode: frames go in with `submit`, results come back through the
/// callback given to ``BatchTask/liveSession(deliver:)`` in order, on another thread.
package protocol LiveSession: AnyObject {
    func submit(_ frame: VideoFrame) throws
    /// Waits for the frames in flight.
    func finish()
    /// Frames the API dropped because a newer one arrived while it was busy.
    var dropped: Int { get }
}
