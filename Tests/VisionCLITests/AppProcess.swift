import Foundation
import Testing
import VisionPipeline
import VisionServer
import VisionTestSupport

/// The built `vision-tasks` executable, run as a user runs it: arguments, environment, standard
/// input; its status, standard output and standard error.
struct AppProcess {
    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static var binary: String { TestAssets.cli }

    static func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil, executable: String? = nil,
        prefix: [String] = [], directory: String? = nil
    ) throws -> Outcome {
        try #require(
            FileManager.default.isExecutableFile(atPath: executable ?? binary),
            "build vision-tasks first (swift build --build-tests)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable ?? binary)
        p.arguments = prefix + arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        // Drain both pipes concurrently so that a full pipe cannot block the child.
        let errData = LockedData()
        let drain = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        drain.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !errData.isSet { usleep(1000) }
        return Outcome(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self))
    }

    /// A fresh temporary folder.
    static func folder(_ name: String = "app") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The JSON objects of a JSONL file.
    static func records(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any],
                "not a JSON object: \($0.prefix(200))")
        }
    }

    /// Runs a project script with the tools venv's Python (scripts/tools/setup.sh makes it).
    static func python(_ arguments: [String]) throws -> Outcome {
        let venv = TestAssets.packageRoot.appendingPathComponent(".venv-tools/bin/python").path
        try #require(
            FileManager.default.isExecutableFile(atPath: venv), "run scripts/tools/setup.sh (make setup) first")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: venv)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Outcome(status: p.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }

    /// Validates a JSONL file (or a JSON document) against schemas/records.schema.json.
    static func validate(_ path: String, jsonl: Bool = true) throws {
        let schema = TestAssets.packageRoot.appendingPathComponent("schemas/records.schema.json").path
        let script = TestAssets.packageRoot.appendingPathComponent("scripts/tools/validate_json.py").path
        let r = try python([script, schema, path] + (jsonl ? ["--jsonl"] : []))
        #expect(r.status == 0, "schema: \(r.stdout.prefix(2000))")
    }
}

/// Bytes set once by another thread.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ d: Data) { lock.withLock { data = d } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}
