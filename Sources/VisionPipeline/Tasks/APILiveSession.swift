import Video

/// A ``LiveSession`` over a MediaPipe task in live-stream mode: frames go to the task's async
/// call, `finish` waits until it is idle, and the task's own dropped-frame count is reported. It
/// keeps the task and its result delegate alive for the session.
package final class APILiveSession: LiveSession {
    private let owner: AnyObject
    private let delegate: AnyObject
    private let submitFrame: (VideoFrame) throws -> Void
    private let waitUntilIdle: () -> Void
    private let droppedCount: () -> Int

    package init(
        owner: AnyObject, delegate: AnyObject, submit: @escaping (VideoFrame) throws -> Void,
        waitUntilIdle: @escaping () -> Void, dropped: @escaping () -> Int
    ) {
        self.owner = owner
        self.delegate = delegate
        submitFrame = submit
        self.waitUntilIdle = waitUntilIdle
        droppedCount = dropped
    }

    package func submit(_ frame: VideoFrame) throws { try submitFrame(frame) }
    package func finish() { waitUntilIdle() }
    package var dropped: Int { droppedCount() }

    /// What a task's live-stream delegate received, as the live runner takes it: the result's record,
    /// or the frame's failure.
    package static func outcome<R>(
        _ result: R?, _ error: Error?, record: (R) -> TaskRecord
    ) -> Result<TaskRecord, ItemFailure> {
        guard let result else { return .failure(ItemFailure(error ?? PipelineError.failure("no result"))) }
        return .success(record(result))
    }
}
