import Foundation

/// `vision-tasks serve`'s options, parsed once: where it listens, its models, its workers and the
/// limits that keep it up under load and bad input.
struct ServeConfig: Sendable {
    var host = "127.0.0.1"
    var port = 8080
    /// Name and path of each model (a fetched model's name resolves to its cached file).
    var models: [(name: String, path: String)] = []
    var workers = 1
    var threads = 1
    var maxQueue = 64
    var maxBody = 20 << 20
    var timeoutMs = 10_000
    var apiKey: String?
    var zmq: String?
    var acceptModels: String?
    var maxModelBytes = 256 << 20
    var maxPredictions = 20
    var maxSessions = 16
    var sessionTTL = 60
    var connections = 256
    var perClient = 0
    var idleTimeout = 30
    var drainSeconds = 30
    /// A testing aid: each job waits this long before it runs (a slow server).
    var delayMs = 0

    static let options = [
        OptionSpec(
            .listen, .text, "HOST:PORT", default: "127.0.0.1:8080",
            help: "where to listen (a numeric address; port 0: any free one). Other interfaces only when asked"),
        OptionSpec(
            .model, .text, "NAME=PATH",
            help: "a model to serve, repeatable (PATH: a .tflite file or a fetched model's name; NAME= optional)"),
        OptionSpec(
            .workers, .integer(1...64), "N",
            help: "inference workers, each with its own copy of each model (default: CPUs ÷ threads)"),
        OptionSpec(.threads, .integer(1...256), "N", default: "1", help: "inference threads per task"),
        OptionSpec(
            .maxQueue, .integer(1...100_000), "N", default: "64", help: "requests waiting at the most (more: 503)"),
        OptionSpec(
            .maxBody, .integer(1024...1 << 30), "BYTES", default: "20971520", help: "largest request body (more: 413)"),
        OptionSpec(
            .timeoutMs, .integer(1...3_600_000), "MS", default: "10000",
            help: "a request not started within this is answered 504"),
        OptionSpec(
            .apiKey, .text, "KEY",
            help: "required key: DeepStack's api_key form field, or Authorization: Bearer KEY (default: none)"),
        OptionSpec(.zmq, .text, "ENDPOINT", help: "also serve Frigate's zmq detector on tcp://HOST:PORT or ipc://PATH"),
        OptionSpec(
            .acceptModels, .text, "DIR",
            help: "let ZMQ clients upload models into DIR (checked, written atomically; default: refused)"),
        OptionSpec(
            .maxModelBytes, .integer(1024...1 << 31), "BYTES", default: "268435456", help: "largest model upload"),
        OptionSpec(
            .maxPredictions, .integer(1...10_000), "N", default: "20",
            help: "DeepStack predictions per reply at the most (Frigate fails on a 21st)"),
        OptionSpec(.maxSessions, .integer(1...10_000), "N", default: "16", help: "open /v1/track sessions at the most"),
        OptionSpec(
            .sessionTtl, .integer(1...86_400), "SECONDS", default: "60",
            help: "a tracking session idle this long ends"),
        OptionSpec(.connections, .integer(1...100_000), "N", default: "256", help: "open connections at the most"),
        OptionSpec(
            .perClient, .integer(0...100_000), "N", default: "0", help: "open connections per client address (0: any)"),
        OptionSpec(
            .idleTimeout, .integer(1...3600), "SECONDS", default: "30",
            help: "an idle or slow connection is closed after this"),
        OptionSpec(
            .drainSeconds, .integer(0...3600), "SECONDS", default: "30",
            help: "on SIGTERM, how long requests in flight may take to finish"),
        OptionSpec(
            .delayMs, .integer(0...60_000), "MS", help: "a testing aid: each request waits this long (a slow server)"),
    ]

    init(_ p: ParsedCommand) throws {
        let listen = p.string(.listen) ?? "127.0.0.1:8080"
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65535).contains(port)
        else { throw CLIError.usage("--listen takes HOST:PORT (e.g. 127.0.0.1:8080 or [::1]:8080), got '\(listen)'") }
        host = String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.port = port
        for spec in p.all(.model) {
            let (name, path) = Self.split(spec)
            models.append((name, try ModelZoo.resolve(path)))
        }
        guard !models.isEmpty else { throw CLIError.usage("serve needs at least one --model NAME=PATH") }
        threads = p.int(.threads) ?? 1
        workers = p.int(.workers) ?? max(1, ProcessInfo.processInfo.activeProcessorCount / threads)
        maxQueue = p.int(.maxQueue) ?? maxQueue
        maxBody = p.int(.maxBody) ?? maxBody
        timeoutMs = p.int(.timeoutMs) ?? timeoutMs
        apiKey = p.string(.apiKey)
        if apiKey?.isEmpty == true { throw CLIError.usage("--api-key must not be empty") }
        zmq = p.string(.zmq)
        acceptModels = p.string(.acceptModels)
        maxModelBytes = p.int(.maxModelBytes) ?? maxModelBytes
        maxPredictions = p.int(.maxPredictions) ?? maxPredictions
        maxSessions = p.int(.maxSessions) ?? maxSessions
        sessionTTL = p.int(.sessionTtl) ?? sessionTTL
        connections = p.int(.connections) ?? connections
        perClient = p.int(.perClient) ?? perClient
        idleTimeout = p.int(.idleTimeout) ?? idleTimeout
        drainSeconds = p.int(.drainSeconds) ?? drainSeconds
        delayMs = p.int(.delayMs) ?? 0
    }

    /// `NAME=PATH` → (NAME, PATH); a bare PATH is named after its file without the extension.
    static func split(_ spec: String) -> (name: String, path: String) {
        if let eq = spec.firstIndex(of: "="), !spec[..<eq].contains("/") {
            return (String(spec[..<eq]), String(spec[spec.index(after: eq)...]))
        }
        return (((spec as NSString).lastPathComponent as NSString).deletingPathExtension, spec)
    }
}
