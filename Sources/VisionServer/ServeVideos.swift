import Foundation
import Locking
import VisionPipeline

/// The videos `/v1/video` annotated: each posted video runs through the pipeline as `vision-tasks
/// track|detect VIDEO --output ID.mp4 --jsonl ID.jsonl` runs it, and the annotated copy is
/// kept in a folder of its own for 10 minutes (at most 16), for `/v1/videos/ID.mp4` to serve.
package final class ServeVideos: Sendable {
    private let folder: String
    private let made = Locked([(name: String, at: Date)]())
    private static let lifetime: TimeInterval = 600
    private static let most = 16

    package init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vision-tasks-serve-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Runs the task `makeTask` makes over the video `bytes`, as `track|detect VIDEO --output ID.mp4
    /// --jsonl ID.jsonl` does (the pipeline in-process, one worker); the reply (JSON): the frame count,
    /// where to download the annotated video, and the records. A video that cannot be read, or whose
    /// frames all fail, is refused with the status of its failure.
    package func run(_ bytes: [UInt8], makeTask: () throws -> BatchTask) throws -> HTTPResponse {
        expire()
        let id = UUID().uuidString.lowercased()
        // The extension tells the pipeline it is a video (FFmpeg reads the container itself).
        let video = folder + "/\(id).in.mp4"
        let output = folder + "/\(id).mp4", records = folder + "/\(id).jsonl"
        defer {
            try? FileManager.default.removeItem(atPath: video)
            try? FileManager.default.removeItem(atPath: records)
        }
        guard FileManager.default.createFile(atPath: video, contents: Data(bytes)) else {
            throw ServeError(500, "Cannot write the upload to \(folder).")
        }
        var batch = BatchConfig()
        batch.inputs = [video]
        batch.workers = 1
        var outputs = OutputConfig()
        outputs.jsonl = records
        outputs.output = output
        outputs.quiet = true
        outputs.progress = "off"
        do {
            let task = try makeTask()
            let runner = try BatchRunner(
                tasks: [task], items: try InputCollector.collect([video]), batch: batch, output: outputs,
                console: Console { _, _ in })
            let summary = try runner.run()
            try task.finish()
            if let (_, failure) = summary.firstFailure, !FileManager.default.fileExists(atPath: output) {
                throw failure
            }
        } catch let e as ServeError {
            throw e
        } catch {
            let failure = ItemFailure(error)
            // The file is our copy of the upload: one FFmpeg cannot read is the client's to fix (400).
            let status = failure.domain == ItemFailure.videoDomain ? 400 : failure.httpStatus
            let reason = failure.message.replacingOccurrences(of: video, with: "the upload")
            throw ServeError(status, "The video could not be processed: \(reason)")
        }
        let lines = (try? String(contentsOfFile: records, encoding: .utf8))?.split(separator: "\n") ?? []
        made.withLock { $0.append((id + ".mp4", Date())) }
        let head = "{\"frames\":\(lines.count),\"video\":\"/v1/videos/\(id).mp4\",\"records\":["
        let body = head + lines.joined(separator: ",") + "]}"
        return HTTPResponse(status: 200, contentType: "application/json", body: Array(body.utf8))
    }

    /// The annotated video `name` (`ID.mp4`), if it is still kept.
    package func file(_ name: String) -> [UInt8]? {
        expire()
        guard made.withLock({ $0.contains { $0.name == name } }) else { return nil }
        return FileManager.default.contents(atPath: folder + "/" + name).map { [UInt8]($0) }
    }

    /// Drops the videos older than their lifetime, and the oldest past the count.
    private func expire() {
        let now = Date()
        let old = made.withLock { made -> [String] in
            var dropped = made.filter { now.timeIntervalSince($0.at) > Self.lifetime }.map(\.name)
            made.removeAll { dropped.contains($0.name) }
            while made.count >= Self.most { dropped.append(made.removeFirst().name) }
            return dropped
        }
        for name in old { try? FileManager.default.removeItem(atPath: folder + "/" + name) }
    }
}
