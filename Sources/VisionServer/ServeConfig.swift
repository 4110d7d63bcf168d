import Foundation
import VisionPipeline

/// `vision-tasks serve`'s options, parsed once: where it listens, its models, its workers and the
/// limits that keep it up under load and bad input.
package struct ServeConfig: Sendable {
    package var host = "127.0.0.1"
    package var port = 8080
    /// Name and path of each model (a fetched model's name resolves to its cached file).
    package var models: [(name: String, path: String)] = []
    package var workers = 1
    package var threads = 1
    package var maxQueue = 64
    package var maxBody = 20 << 20
    package var timeoutMs = 10_000
    package var apiKey: String?
    package var zmq: String?
    package var acceptModels: String?
    package var maxModelBytes = 256 << 20
    package var maxPredictions = 20
    package var maxSessions = 16
    package var sessionTTL = 60
    package var connections = 256
    package var perClient = 0
    package var idleTimeout = 30
    package var drainSeconds = 30
    /// A testing aid: each job waits this long before it runs (a slow server).
    package var delayMs = 0

    package init() {}

}
