import Foundation
import Imaging
import MediaPipeTasksVision
import Video
import VisionCore

/// Runs a task over pictures and videos as a pipeline: a reader thread decodes the next pictures
/// and frames; one or more workers (each with its own copy of the task and its own inference
/// thread) run the task, items dealt to them in turn; a writer thread writes records, annotated
/// outputs, the report and progress, taking the results back in the same turn — so the output
/// keeps the input order. Bounded queues keep memory flat. A stateful task (tracking) gets one
/// worker. `--sequential` runs the same stages one after another on one thread (for comparison).
// @unchecked Sendable: each `var` belongs to one stage thread — `producerSkipped` to the reader, the
// summary, `fatal` and the per-video state to the writer — except `stopped` (under `stopLock`); `run()`
// reads them only after every stage thread has signalled `done`.
package final class BatchRunner: @unchecked Sendable {
    private enum Work {
        case picture(InputItem, Result<Picture, ItemFailure>, decode: Double)
        case frame(InputItem, VideoFrame, video: Int, first: Bool, framesPerSecond: Double, decode: Double)
        case videoEnd(InputItem, frames: Int, failure: ItemFailure?)
    }

    private struct Done {
        let work: Work
        let result: Result<TaskRecord, ItemFailure>?
        let seconds: Double
    }

    /// What a run did.
    package struct Summary {
        package var pictures = 0
        package var frames = 0
        package var videos = 0
        package var failures = 0
        package var skipped = 0
        package var firstFailure: (source: String, failure: ItemFailure)?
        package var seconds = 0.0
        package var stages = StageTimes()
        package var written: [String] = []
        /// `track`'s line and zone summary of each video.
        package var zones: [(source: String, json: JSONValue, lines: [String])] = []
    }

    /// The task copies, one per worker (the first one alone when sequential).
    package let tasks: [BatchTask]
    package let items: [InputItem]
    private let every: Int
    private let orientation: UIImage.Orientation?
    /// `--fast-decode`: the size pictures are decoded for (the tasks' model input).
    private var jpegDecoding: JPEGDecoding { tasks.first?.jpegDecoding ?? .mediaPipe }
    private let resume: ResumeIndex?
    private let sink: RecordSink
    private let output: AnnotatedOutput?
    private let report: HTMLReport?
    private let progress: ProgressReporter
    private let quiet: Bool
    private let sequential: Bool
    private let announceFailures: Bool
    private let console: Console
    private var summary = Summary()
    private var producerSkipped = 0
    private var fatal: Error?
    private let stopLock = NSLock()
    private var stopped = false
    private var seenTracks: Set<Int> = []
    private var framesInVideo = 0
    private var expectedFrames: [String: Int] = [:]

    package init(
        tasks: [BatchTask], items allItems: [InputItem], batch: BatchConfig, output outputConfig: OutputConfig,
        console: Console
    ) throws {
        guard let task = tasks.first else { throw PipelineError.failure("no task to run") }
        self.tasks = task.isStateful ? [task] : tasks
        self.console = console
        every = batch.every
        orientation = batch.orientation
        quiet = outputConfig.quiet
        sequential = batch.sequential
        let resuming = outputConfig.resume
        let index = try resuming ? outputConfig.jsonl.map(ResumeIndex.init(path:)) : nil
        resume = index
        // Pictures already done are dropped here; video frames are skipped as they are read.
        items = allItems.filter { !($0.kind == .picture && (index?.contains(source: $0.path, frame: nil) ?? false)) }
        summary.skipped = allItems.count - items.count
        sink = try RecordSink(outputConfig, resuming: resuming, console: console)
        let kept = items, name = task.name
        output = try outputConfig.output.map { try AnnotatedOutput(target: $0, items: kept, task: name) }
        report = outputConfig.report.map { HTMLReport(path: $0, task: name, model: batch.model) }
        var total = 0
        for item in items {
            guard item.kind == .video else { total += 1; continue }
            // The frame count for progress; a video that cannot be opened is reported when processed.
            let frames =
                (try? VideoReader(path: item.path)).flatMap { r in
                    r.info.frameCount
                        ?? r.info.durationMs.flatMap { d in r.info.framesPerSecond.map { Int(Double(d) * $0 / 1000) } }
                } ?? 1
            let expected = max(1, (frames + every - 1) / every)
            expectedFrames[item.path] = expected
            total += expected
        }
        progress = ProgressReporter(style: quiet ? "off" : outputConfig.progress, total: total, console: console)
        announceFailures = items.count > 1
    }

    private var isStopped: Bool { stopLock.withLock { stopped } }
    private func stop() { stopLock.withLock { stopped = true } }

    /// Runs everything; returns the summary (failures included: the caller decides the status).
    package func run() throws -> Summary {
        let started = Clock.now()
        if sequential {
            produce { work in self.consume(self.process(work, on: self.tasks[0])) }
        } else {
            // Item k goes to worker k mod n and comes back from it in the same turn.
            let n = tasks.count
            let decoded = (0..<n).map { _ in BoundedQueue<Work>(capacity: 2) }
            let finished = (0..<n).map { _ in BoundedQueue<Done>(capacity: 2) }
            let done = DispatchSemaphore(value: 0)
            func start(_ body: @escaping @Sendable () -> Void) {
                let t = Thread {
                    body()
                    done.signal()
                }
                t.stackSize = 8 << 20
                t.start()
            }
            start {
                var k = 0
                self.produce { work in
                    decoded[k % n].push(work)
                    k += 1
                }
                for q in decoded { q.close() }
            }
            for w in 0..<n {
                start {
                    while let work = decoded[w].pop() { finished[w].push(self.process(work, on: self.tasks[w])) }
                    finished[w].close()
                }
            }
            start {
                var k = 0
                while let result = finished[k % n].pop() {
                    self.consume(result)
                    k += 1
                }
                // Unblock workers still pushing after a fatal error.
                for q in finished { while q.pop() != nil {} }
            }
            for _ in 0..<(n + 2) { done.wait() }
        }
        progress.finish()
        summary.seconds = Clock.now() - started
        summary.skipped += producerSkipped
        if let fatal { throw fatal }
        try finishOutputs()
        return summary
    }

    // MARK: stage 1 — read and decode

    private func produce(_ emit: (Work) -> Void) {
        var videoNumber = 0
        for item in items {
            if isStopped { return }
            switch item.kind {
            case .picture:
                let t0 = Clock.now()
                let picture = Result { try Picture.load(item.path, orientation: orientation, jpeg: jpegDecoding) }
                    .mapError(ItemFailure.init)
                emit(.picture(item, picture, decode: Clock.now() - t0))
            case .video:
                var count = 0
                var failure: ItemFailure?
                do {
                    let reader = try VideoReader(path: item.path)
                    let fps = (reader.info.framesPerSecond ?? 30) / Double(every)
                    videoNumber += 1
                    var first = true
                    while !isStopped {
                        let t0 = Clock.now()
                        guard let frame = try reader.nextFrame() else { break }
                        if (frame.number - 1) % every != 0 { continue }
                        if resume?.contains(source: item.path, frame: frame.number) ?? false {
                            producerSkipped += 1
                            continue
                        }
                        emit(
                            .frame(
                                item, frame, video: videoNumber, first: first, framesPerSecond: fps,
                                decode: Clock.now() - t0))
                        first = false
                        count += 1
                    }
                } catch {
                    failure = ItemFailure(error)
                }
                emit(.videoEnd(item, frames: count, failure: failure))
            }
        }
    }

    // MARK: stage 2 — the task

    private func process(_ work: Work, on task: BatchTask) -> Done {
        let t0 = Clock.now()
        let result: Result<TaskRecord, ItemFailure>?
        switch work {
        case .picture(_, .success(let picture), _):
            result = Result { try task.picture(picture) }.mapError(ItemFailure.init)
        case .picture(_, .failure(let f), _):
            result = .failure(f)
        case .frame(_, let frame, let video, _, _, _):
            result = Result { try task.frame(frame, video: video) }.mapError(ItemFailure.init)
        case .videoEnd:
            result = task.videoEnded().map { .success($0) }
        }
        return Done(work: work, result: result, seconds: Clock.now() - t0)
    }

    // MARK: stage 3 — write

    private func consume(_ done: Done) {
        guard fatal == nil else { return }
        do { try write(done) } catch {
            fatal = error
            stop()
        }
    }

    private func record(_ head: [(String, JSONValue)], _ result: Result<TaskRecord, ItemFailure>) -> JSONValue {
        switch result {
        case .success(let r): return .object(head + r.fields)
        case .failure(let f): return .object(head + [("error", f.json)])
        }
    }

    private func fail(_ source: String, _ f: ItemFailure) {
        summary.failures += 1
        if summary.firstFailure == nil { summary.firstFailure = (source, f) }
        if announceFailures {
            console.write(.error, "\n\(Self.program): " + f.line(source: source) + "\n")
        }
    }

    package static let program = "vision-tasks"

    private func addStages(_ done: Done, decode: Double) {
        summary.stages.add("decode", decode)
        if case .success(let r)? = done.result, let s = r.stages {
            summary.stages.add("preprocess", s.preprocess)
            summary.stages.add("inference", s.inference)
            summary.stages.add("postprocess", s.postprocess)
        } else {
            summary.stages.add("task", done.seconds)
        }
    }

    private func write(_ done: Done) throws {
        let t0 = Clock.now()
        switch done.work {
        case .picture(let item, let picture, let decode):
            guard let result = done.result else { return }
            addStages(done, decode: decode)
            summary.pictures += 1
            let decoded = try? picture.get()
            let head = RecordHead.picture(item.path, width: decoded?.shownWidth, height: decoded?.shownHeight)
            try sink.write(
                record(head, result), text: (try? result.get().text) ?? "",
                heading: items.count > 1 ? "\(item.path):" : nil)
            switch (picture, result) {
            case (.success(let p), .success(let r)):
                if output != nil || report != nil {
                    let shown = p.shown
                    try output?.picture(item, Annotation.draw(r, on: shown, scale: p.drawScale))
                    try report?.add(
                        .init(
                            source: item.path, detail: "\(p.shownWidth)×\(p.shownHeight)",
                            thumbnails: [HTMLReport.thumbnail(shown, r, scale: p.drawScale)],
                            lines: Self.lines(r)), classes: r.classes)
                }
            case (_, .failure(let f)):
                fail(item.path, f)
                report?.add(.init(source: item.path, detail: "", error: "error \(f.code): \(f.message)"), classes: [])
            default: break
            }
            progress.step(item.relativePath)
        case .frame(let item, let frame, _, let first, let fps, let decode):
            guard let result = done.result else { return }
            addStages(done, decode: decode)
            summary.frames += 1
            if first {
                summary.videos += 1
                framesInVideo = 0
                seenTracks = []
                report?.add(.init(source: item.path, detail: ""), classes: [])
            }
            framesInVideo += 1
            let head = RecordHead.frame(
                item.path, number: frame.number, timestampMs: frame.timestampMs, width: frame.bitmap.width,
                height: frame.bitmap.height)
            try sink.write(
                record(head, result), text: (try? result.get().text) ?? "",
                heading: "\(item.path) frame \(frame.number) (\(frame.timestampMs) ms):")
            switch result {
            case .success(let r):
                try output?.frame(
                    item, Annotation.draw(r, on: frame.bitmap), timestampMs: frame.timestampMs, framesPerSecond: fps)
                if let report {
                    let expected = expectedFrames[item.path] ?? 1
                    let spacing = max(1, expected / HTMLReport.framesPerVideo)
                    let thumb =
                        (framesInVideo - 1) % spacing == 0 && (framesInVideo - 1) / spacing < HTMLReport.framesPerVideo
                    var classes = r.classes
                    if !r.identities.isEmpty {  // tracks: count each object once
                        classes = zip(r.classes, r.identities).compactMap { c, id in
                            guard let id else { return nil }
                            return seenTracks.insert(id).inserted ? c : nil
                        }
                    }
                    report.extendLast(
                        thumbnail: thumb ? try HTMLReport.thumbnail(frame.bitmap, r) : nil, line: nil, classes: classes)
                }
            case .failure(let f):
                fail("\(item.path) frame \(frame.number)", f)
            }
            progress.step("\(item.relativePath) #\(frame.number)")
        case .videoEnd(let item, let frames, let failure):
            try output?.endVideo()
            if case .success(let r)? = done.result, let z = r.zoneSummary {
                summary.zones.append((item.path, z.json, z.lines))
                for l in z.lines { report?.extendLast(thumbnail: nil, line: l, classes: []) }
            }
            if frames == 0 && failure == nil { report?.add(.init(source: item.path, detail: "no frames"), classes: []) }
            if let failure {
                if frames == 0 { report?.add(.init(source: item.path, detail: ""), classes: []) }
                report?.setLastError("error \(failure.code): \(failure.message)")
                try sink.write(
                    .object(RecordHead.failure(item.path, failure)), text: "", heading: nil)
                fail(item.path, failure)
            }
            report?.setLastDetail("\(frames) frames processed" + (every > 1 ? " (every \(every))" : ""))
        }
        summary.stages.add("output", Clock.now() - t0)
    }

    private static func fields(_ v: JSONValue) -> [(String, JSONValue)] {
        if case .object(let f) = v { return f }
        return []
    }

    /// The report's result lines for one record.
    package static func lines(_ r: TaskRecord) -> [String] {
        if !r.marks.isEmpty { return r.marks.map { "\($0.label) at (\($0.x), \($0.y), \($0.width)×\($0.height))" } }
        return r.text.split(separator: "\n").prefix(12).map(String.init)
    }

    private func finishOutputs() throws {
        summary.written = output?.written ?? []
        try sink.finish(header: [("command", .string(tasks[0].name))], summary: summaryJSON)
        if let report {
            try report.write(summary: summaryLine, stages: summary.stages)
        }
    }

    package var summaryJSON: JSONValue {
        .object(
            [
                ("pictures", .int(summary.pictures)), ("videos", .int(summary.videos)),
                ("frames", .int(summary.frames)),
                ("failures", .int(summary.failures)), ("skipped", .int(summary.skipped)),
                ("seconds", .number(summary.seconds)),
            ]
                + (summary.zones.isEmpty
                    ? []
                    : [
                        (
                            "zones",
                            .array(
                                summary.zones.map { .object([("source", .string($0.source))] + Self.fields($0.json)) })
                        )
                    ]))
    }

    package var summaryLine: String {
        let n = summary.pictures + summary.frames
        var parts: [String] = []
        if summary.pictures > 0 { parts.append("\(summary.pictures) picture\(summary.pictures == 1 ? "" : "s")") }
        if summary.videos > 0 {
            parts.append("\(summary.videos) video\(summary.videos == 1 ? "" : "s") (\(summary.frames) frames)")
        }
        if summary.skipped > 0 { parts.append("\(summary.skipped) skipped (already done)") }
        if summary.failures > 0 { parts.append("\(summary.failures) failed") }
        return (parts.isEmpty ? "nothing to do" : parts.joined(separator: ", "))
            + String(format: " in %.1f s (%.1f items/s)", summary.seconds, Double(n) / max(summary.seconds, 1e-9))
    }
}
