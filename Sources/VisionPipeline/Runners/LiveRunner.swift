import Foundation
import Imaging
import Synchronization
import Video
import VisionCore

/// `--live SOURCE`: frames from a camera, a stream URL, or a video file played at real-time pace,
/// through the task's live-stream mode. As in MediaPipe, one frame is processed while one newer
/// frame waits; older waiting frames are dropped. (ML Kit has no live-stream mode: the runner
/// applies the same rule itself.) The run ends at the end of the source or on Ctrl-C, and reports
/// the frames read, delivered and dropped.
// @unchecked Sendable: the `var`s are read and written under `lock`, but `framesPerSecond`, which
// `run()` sets before any frame reaches another thread; the task runs frames on one thread at a time
// (its own live-stream queue, or the core flow control's worker).
package final class LiveRunner: @unchecked Sendable {
    package struct Summary {
        package var read = 0
        package var delivered = 0
        package var dropped = 0
        package var failures = 0
        package var firstFailure: ItemFailure?
        package var seconds = 0.0
    }

    private let task: BatchTask
    private let source: String
    private let sink: RecordSink
    private let output: AnnotatedOutput?
    private let item: InputItem
    private let quiet: Bool
    private let lock = NSLock()
    private var pending: [Int: VideoFrame] = [:]
    private var summary = Summary()
    private var fatal: Error?
    private var framesPerSecond = 30.0
    private var outputTimestamp = Int.min

    package init(task: BatchTask, live: LiveConfig, output outputConfig: OutputConfig, console: Console) throws {
        self.task = task
        let source = live.source
        self.source = source
        let name = source.split(whereSeparator: { "/:?&=".contains($0) }).last.map(String.init) ?? "live"
        let item = InputItem(
            path: source, relativePath: (name as NSString).deletingPathExtension + ".mp4", kind: .video)
        self.item = item
        sink = try RecordSink(outputConfig, resuming: false, console: console)
        let taskName = task.name
        output = try outputConfig.output.map { try AnnotatedOutput(target: $0, items: [item], task: taskName) }
        quiet = outputConfig.quiet
    }

    /// Set by the SIGINT handler (a lock-free atomic: safe in a signal handler).
    package static let interrupted = Atomic<Int>(0)

    package func run() throws -> Summary {
        var isDirectory: ObjCBool = false
        let isFile =
            FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) && !isDirectory.boolValue
            && !source.hasPrefix("/dev/")
        let reader = try isFile ? VideoReader(path: source) : VideoReader(liveSource: source)
        framesPerSecond = reader.info.framesPerSecond ?? 30
        LiveRunner.interrupted.store(0, ordering: .relaxed)
        let previous = signal(SIGINT) { _ in LiveRunner.interrupted.store(1, ordering: .relaxed) }
        defer { signal(SIGINT, previous) }
        let started = Clock.now()
        var firstTimestamp: Int?
        var lastTimestamp = Int.min
        let session = try task.liveSession { [self] timestamp, result in deliver(timestamp, result) }
        // ML Kit tasks have no live-stream mode: the core's flow control (one frame processed, the
        // newest one waiting) runs them, as MediaPipe's tasks run themselves.
        let flow =
            session == nil
            ? LiveStreamRunner<VideoFrame, TaskRecord>(
                label: "live",
                process: { [self] frame in
                    try task.frame(frame, video: 0)  // on the flow's worker only
                },
                deliver: { [self] result, timestamp in
                    deliver(timestamp, result.mapError(ItemFailure.init))
                }) : nil
        var readError: Error?
        while LiveRunner.interrupted.load(ordering: .relaxed) == 0 {
            let frame: VideoFrame
            do {
                guard let next = try reader.nextFrame() else { break }
                frame = next
            } catch {
                readError = error
                break
            }
            guard frame.timestampMs > lastTimestamp else { continue }  // live-stream timestamps must increase
            lastTimestamp = frame.timestampMs
            if isFile {  // real-time pace: frame k is due at its timestamp after the first
                let first = firstTimestamp ?? frame.timestampMs
                firstTimestamp = first
                let due = started + Double(frame.timestampMs - first) / 1000
                let wait = due - Clock.now()
                if wait > 0 { usleep(useconds_t(min(wait, 10) * 1_000_000)) }
            }
            lock.withLock {
                summary.read += 1
                pending[frame.timestampMs] = frame
            }
            if let session {
                do { try session.submit(frame) } catch { deliver(frame.timestampMs, .failure(ItemFailure(error))) }
            } else {
                flow?.submit(frame, timestamp: frame.timestampMs)
            }
            if lock.withLock({ fatal != nil }) { break }
        }
        session?.finish()
        flow?.waitUntilIdle()
        try output?.endVideo()
        try sink.finish(header: [("command", .string(task.name)), ("live", .string(source))], summary: .null)
        var s = lock.withLock { summary }
        s.dropped = s.read - s.delivered
        s.seconds = Clock.now() - started
        if let fatal = lock.withLock({ fatal }) { throw fatal }
        if let readError {
            s.failures += 1
            if s.firstFailure == nil { s.firstFailure = ItemFailure(readError) }
        }
        return s
    }

    /// A result (or error) for the frame shown at `timestamp`; frames older than it were dropped.
    private func deliver(_ timestamp: Int, _ result: Result<TaskRecord, ItemFailure>) {
        lock.lock()
        defer { lock.unlock() }
        let frame = pending[timestamp]
        pending = pending.filter { $0.key > timestamp }
        summary.delivered += 1
        guard fatal == nil else { return }
        do {
            let head =
                frame.map {
                    RecordHead.frame(
                        source, number: $0.number, timestampMs: timestamp, width: $0.bitmap.width,
                        height: $0.bitmap.height)
                } ?? RecordHead.picture(source)
            switch result {
            case .success(let r):
                try sink.write(
                    .object(head + r.fields), text: r.text,
                    heading: "\(source) frame \(frame?.number ?? 0) (\(timestamp) ms):")
                if let frame, let output, timestamp > outputTimestamp {
                    outputTimestamp = timestamp
                    try output.frame(
                        item, Annotation.draw(r, on: frame.bitmap), timestampMs: timestamp,
                        framesPerSecond: framesPerSecond)
                }
            case .failure(let f):
                try sink.write(.object(head + [("error", f.json)]), text: "", heading: nil)
                summary.failures += 1
                if summary.firstFailure == nil { summary.firstFailure = f }
            }
        } catch {
            fatal = error
        }
    }
}
