import Foundation
import Locking

/// The videos `/v1/video` annotated: each posted video runs through the command line itself
/// (`vision-tasks track|detect VIDEO --output ID.mp4 --jsonl ID.jsonl`), and the annotated copy is
/// kept in a folder of its own for 10 minutes (at most 16), for `/v1/videos/ID.mp4` to serve.
final class ServeVideos: Sendable {
    private let folder: String
    private let made = Locked([(name: String, at: Date)]())
    private static let lifetime: TimeInterval = 600
    private static let most = 16

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vision-tasks-serve-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Runs the command `arguments` (`track`/`detect` and its options) on `bytes`; the reply (JSON):
    /// the frame count, where to download the annotated video, and the records as `--jsonl` wrote them.
    func run(_ bytes: [UInt8], arguments: [String]) throws -> HTTPResponse {
        expire()
        let id = UUID().uuidString.lowercased()
        let input = folder + "/\(id).in"
        let output = folder + "/\(id).mp4", records = folder + "/\(id).jsonl"
        defer {
            try? FileManager.default.removeItem(atPath: input)
            try? FileManager.default.removeItem(atPath: records)
        }
        guard FileManager.default.createFile(atPath: input, contents: Data(bytes)) else {
            throw ServeError(500, "Cannot write the upload to \(folder).")
        }
        // The extension tells the command line it is a video (FFmpeg reads the container itself).
        let video = input + ".mp4"
        guard rename(input, video) == 0 else { throw ServeError(500, "Cannot name the upload.") }
        defer { try? FileManager.default.removeItem(atPath: video) }
        let (console, captured) = Console.capturing()
        let status = VisionTasksCommand.main(
            arguments + [video, "--output", output, "--jsonl", records, "--quiet", "--workers", "1"], console: console)
        guard status == 0 || FileManager.default.fileExists(atPath: output) else {
            let reason = captured.error.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
            throw ServeError(status == 3 || status == 64 ? 400 : 500, "The video could not be processed: \(reason)")
        }
        let lines = (try? String(contentsOfFile: records, encoding: .utf8))?.split(separator: "\n") ?? []
        made.withLock { $0.append((id + ".mp4", Date())) }
        let head = "{\"frames\":\(lines.count),\"video\":\"/v1/videos/\(id).mp4\",\"records\":["
        let body = head + lines.joined(separator: ",") + "]}"
        return HTTPResponse(status: 200, contentType: "application/json", body: Array(body.utf8))
    }

    /// The annotated video `name` (`ID.mp4`), if it is still kept.
    func file(_ name: String) -> [UInt8]? {
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
