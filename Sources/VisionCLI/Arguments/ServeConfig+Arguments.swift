import FileInput
import Foundation
import VisionPipeline
import VisionServer

/// `serve`'s command line.
extension ServeConfig {
    /// The server's own defaults (VisionServer declares them), shown in help and used when an option is absent.
    private static let standard = ServeConfig()

    static let options = [
        OptionSpec(
            .listen, .text, "HOST:PORT", default: "\(standard.host):\(standard.port)",
            help: "where to listen (a numeric address; port 0: any free one); else $\(listenVariable). Other "
                + "interfaces only when asked"),
        OptionSpec(
            .model, .text, "NAME=PATH",
            help: "a model to serve, repeatable (PATH: a .tflite file or a fetched model's name; NAME= optional); "
                + "else $\(modelVariable)"),
        OptionSpec(
            .workers, .integer(1...64), "N",
            help: "inference workers, each with its own copy of each model (default: CPUs ÷ threads)"),
        TaskArguments.threads,
        OptionSpec(
            .maxQueue, .integer(1...100_000), "N", default: "\(standard.maxQueue)",
            help: "requests waiting at the most (more: 503)"),
        OptionSpec(
            .maxBody, .integer(1024...1 << 30), "BYTES", default: "\(standard.maxBody)",
            help: "largest request body (more: 413)"),
        OptionSpec(
            .timeoutMs, .integer(1...3_600_000), "MS", default: "\(standard.timeoutMs)",
            help: "a request not started within this is answered 504"),
        OptionSpec(
            .apiKeyFile, .text, "FILE",
            help: "require the key in FILE (its first line; e.g. a mounted Secret). Default: $VISION_TASKS_API_KEY, "
                + "else none"),
        OptionSpec(
            .apiKey, .text, "KEY",
            help: "require KEY (visible to other processes in ps: prefer --api-key-file or $VISION_TASKS_API_KEY)"),
        OptionSpec(.zmq, .text, "ENDPOINT", help: "also serve Frigate's zmq detector on tcp://HOST:PORT or ipc://PATH"),
        OptionSpec(
            .acceptModels, .text, "DIR",
            help: "let ZMQ clients upload models into DIR (checked, written atomically; default: refused)"),
        OptionSpec(
            .maxModelBytes, .integer(1024...1 << 31), "BYTES", default: "\(standard.maxModelBytes)",
            help: "largest model upload"),
        OptionSpec(
            .maxPredictions, .integer(1...10_000), "N", default: "\(standard.maxPredictions)",
            help: "DeepStack predictions per reply at the most (Frigate fails on a 21st)"),
        OptionSpec(
            .maxSessions, .integer(1...10_000), "N", default: "\(standard.maxSessions)",
            help: "open /v1/track sessions at the most"),
        OptionSpec(
            .sessionTtl, .integer(1...86_400), "SECONDS", default: "\(standard.sessionTTL)",
            help: "a tracking session idle this long ends"),
        OptionSpec(
            .connections, .integer(1...100_000), "N", default: "\(standard.connections)",
            help: "open connections at the most"),
        OptionSpec(
            .perClient, .integer(0...100_000), "N", default: "\(standard.perClient)",
            help: "open connections per client address (0: any)"),
        OptionSpec(
            .idleTimeout, .integer(1...3600), "SECONDS", default: "\(standard.idleTimeout)",
            help: "an idle or slow connection is closed after this"),
        OptionSpec(
            .drainSeconds, .integer(0...3600), "SECONDS", default: "\(standard.drainSeconds)",
            help: "on SIGTERM, how long requests in flight may take to finish"),
        OptionSpec(
            .delayMs, .integer(0...60_000), "MS", help: "a testing aid: each request waits this long (a slow server)"),
    ]

    /// The variables that stand for `--listen` and `--model` when they are not given (the container
    /// image sets them: all interfaces, the model it bundles).
    static let listenVariable = "VISION_TASKS_LISTEN"
    static let modelVariable = "VISION_TASKS_MODEL"

    /// `serve`'s options; the key, the address and the model may come from `environment`
    /// (`VISION_TASKS_API_KEY`, `VISION_TASKS_LISTEN`, `VISION_TASKS_MODEL`).
    init(_ p: ParsedCommand, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.init()
        // The key first: a server meant to need one never starts without it.
        apiKey = try Self.apiKey(p, environment: environment)
        let fromEnvironment = p.has(.listen) ? nil : environment[Self.listenVariable]
        let listen = try fromEnvironment ?? p.value(.listen, as: String.self)
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65535).contains(port)
        else {
            let from = fromEnvironment == nil ? "--listen" : Self.listenVariable
            throw CLIError.usage("\(from) takes HOST:PORT (e.g. 127.0.0.1:8080 or [::1]:8080), got '\(listen)'")
        }
        host = String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.port = port
        let specs = p.all(.model).isEmpty ? environment[Self.modelVariable].map { [$0] } ?? [] : p.all(.model)
        for spec in specs where !spec.isEmpty {
            let (name, path) = Self.split(spec)
            models.append((name, try ModelZoo.resolve(path)))
        }
        guard !models.isEmpty else {
            throw CLIError.usage("serve needs at least one --model NAME=PATH (or $\(Self.modelVariable))")
        }
        threads = try p.value(.threads, as: Int.self)
        workers = p.int(.workers) ?? max(1, ProcessInfo.processInfo.activeProcessorCount / threads)
        maxQueue = try p.value(.maxQueue, as: Int.self)
        maxBody = try p.value(.maxBody, as: Int.self)
        timeoutMs = try p.value(.timeoutMs, as: Int.self)
        zmq = p.string(.zmq)
        acceptModels = p.string(.acceptModels)
        maxModelBytes = try p.value(.maxModelBytes, as: Int.self)
        maxPredictions = try p.value(.maxPredictions, as: Int.self)
        maxSessions = try p.value(.maxSessions, as: Int.self)
        sessionTTL = try p.value(.sessionTtl, as: Int.self)
        connections = try p.value(.connections, as: Int.self)
        perClient = try p.value(.perClient, as: Int.self)
        idleTimeout = try p.value(.idleTimeout, as: Int.self)
        drainSeconds = try p.value(.drainSeconds, as: Int.self)
        delayMs = p.int(.delayMs) ?? 0
    }

    /// `NAME=PATH` → (NAME, PATH); a bare PATH is named after its file without the extension.
    static func split(_ spec: String) -> (name: String, path: String) {
        if let eq = spec.firstIndex(of: "="), !spec[..<eq].contains("/") {
            return (String(spec[..<eq]), String(spec[spec.index(after: eq)...]))
        }
        return (((spec as NSString).lastPathComponent as NSString).deletingPathExtension, spec)
    }

    /// The key clients must give: `--api-key-file FILE` (its first line), else `--api-key KEY`, else
    /// `VISION_TASKS_API_KEY`; nil when none is given. An empty key, an unreadable or empty file, or
    /// both options are refused: the server never starts open when a key was meant.
    static func apiKey(_ p: ParsedCommand, environment: [String: String]) throws -> String? {
        if p.has(.apiKeyFile) && p.has(.apiKey) {
            throw CLIError.usage("give --api-key-file or --api-key, not both")
        }
        if let path = p.string(.apiKeyFile) {
            let text: String
            do {
                text = String(decoding: try RegularFile.read(path, maxBytes: 1 << 16), as: UTF8.self)
            } catch let e as FileInputError {
                throw CLIError.usage("--api-key-file: \(e.message)")
            }
            let key =
                text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            guard !key.isEmpty else { throw CLIError.usage("--api-key-file \(path): the file holds no key") }
            return key
        }
        if let key = p.string(.apiKey) {
            guard !key.isEmpty else { throw CLIError.usage("--api-key must not be empty") }
            return key
        }
        if let key = environment["VISION_TASKS_API_KEY"] {
            guard !key.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw CLIError.usage("VISION_TASKS_API_KEY is set but empty: set a key, or unset it to serve with none")
            }
            return key
        }
        return nil
    }

}
