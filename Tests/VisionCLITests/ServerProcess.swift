import Foundation
import Testing
import VisionPipeline
import VisionServer
import VisionTestSupport

/// A `vision-tasks serve` process on a loopback port, driven by real clients (curl, Python requests,
/// pyzmq): started, told apart by the port it prints, stopped with SIGTERM.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    private let errors = LockedText()
    private(set) var port = 0
    private(set) var zmq: String?

    /// Starts the server with `arguments` (after `serve --listen 127.0.0.1:0`, or `serve` alone when
    /// `listen` is false) and `environment` added to this process's, and waits until it listens (at most
    /// `seconds`).
    init(_ arguments: [String], environment: [String: String] = [:], seconds: Double = 90, listen: Bool = true) throws {
        try #require(FileManager.default.isExecutableFile(atPath: AppProcess.binary), "build vision-tasks first")
        process.executableURL = URL(fileURLWithPath: AppProcess.binary)
        process.arguments = ["serve"] + (listen ? ["--listen", "127.0.0.1:0"] : []) + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        let errors = errors
        err.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { errors.append(String(decoding: data, as: UTF8.self)) }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && process.isRunning {
            let text = errors.value
            if let range = text.range(of: "listening on http://127.0.0.1:") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
                if let z = text.range(of: "zmq detector on ") {
                    zmq = String(text[z.upperBound...].prefix { !$0.isWhitespace })
                }
                break
            }
            usleep(50_000)
        }
        try #require(port > 0, "the server did not start: \(errors.value)")
    }

    /// The server's command line as the system shows it to every process (`/proc/PID/cmdline`).
    var commandLine: [String] {
        let bytes =
            (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(process.processIdentifier)/cmdline"))) ?? Data()
        return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Everything the server wrote to standard error so far.
    var log: String { errors.value }

    var base: String { "http://127.0.0.1:\(port)" }

    /// SIGTERM, then the exit status (at most `seconds`; then SIGKILL and nil).
    func stop(seconds: Double = 60) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// curl with `arguments`: the status and the body.
    static func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let r = try AppProcess.run(
            arguments, executable: "/usr/bin/curl", prefix: ["-s", "--max-time", "60", "-w", "\n%{http_code}"])
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// The JSON object in `text`.
    static func json(_ text: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text.prefix(300))")
    }
}

/// Text appended by another thread.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func append(_ s: String) { lock.withLock { text += s } }
    var value: String { lock.withLock { text } }
}
