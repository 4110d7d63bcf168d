import Foundation
import Locking
import MediaPipeTasksVision
import VisionPipeline

/// `vision-tasks serve`: detection as a service — the DeepStack / CodeProject.AI detection API that
/// Frigate, Home Assistant, Blue Iris and Agent DVR call, Frigate's ZMQ detector, and our JSON API
/// giving the records `--jsonl` writes — on libmicrohttpd and libzmq, with a bounded queue, deadlines,
/// body and connection limits, an API key, health, readiness and Prometheus metrics, and a drain on
/// SIGTERM (Documentation/VisionTasks.docc/Serving.md).
package enum Server {
    /// The models and the routes, as `GET /v1` lists them.
    package static func index(_ models: [ServeModels.Model]) -> String {
        var lines = ["vision-tasks serve", "", "models:"]
        lines += models.map {
            "  \($0.name)  \($0.kind.rawValue)  \($0.fileName)  input \($0.inputShape) \($0.inputType)"
        }
        lines += ["", "routes:"]
        lines += Route.all.map { route in
            let head = "  " + route.methods.joined(separator: "|") + " " + route.path
            return head.padding(toLength: max(head.count + 2, 36), withPad: " ", startingAt: 0)
                + route.summary.replacingOccurrences(of: "`", with: "")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Serves `config` until SIGTERM or SIGINT, then drains; notes go to `console`'s standard error.
    package static func run(_ config: ServeConfig, console: Console) throws {
        let models = try ServeModels(config.models)
        // Every model loads now (a bad one stops the server before it listens).
        for model in models.all {
            switch model.kind {
            case .detector: _ = try DetectTask(model.detectorConfig(threads: config.threads))
            case .classifier: _ = try ClassifyTask(MediaPipeTaskConfig(modelPath: model.path))
            }
        }
        // SIGINT and SIGTERM are taken by this thread (sigtimedwait); every thread started below
        // inherits the blocked mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &signals, nil) }

        let metrics = ServeMetrics()
        let warm = DispatchSemaphore(value: 0)
        let detectors = models.all.filter { $0.kind == .detector }
        let threads = config.threads
        let workers = ServeWorkers(count: config.workers, capacity: config.maxQueue) {
            // Each worker loads the detectors as DeepStack and Frigate use them before it is ready.
            let tasks = WorkerTasks()
            for model in detectors {
                _ = try? tasks.task(model.detectorTaskKey, as: DetectTask.self) {
                    try DetectTask(model.detectorConfig(threads: threads))
                }
            }
            warm.signal()
            return tasks
        }
        let sessions = TrackSessions(capacity: config.maxSessions, ttlSeconds: config.sessionTTL)
        let router = ServeRouter(config: config, models: models, workers: workers, metrics: metrics, sessions: sessions)
        var limits = HTTPServer.Limits()
        limits.connections = config.connections
        limits.perClient = config.perClient
        limits.idleSeconds = config.idleTimeout
        limits.maxBody = config.maxBody
        let http = try HTTPServer(host: config.host, port: config.port, limits: limits, done: { _ in }) {
            request, responder in
            router.handle(request, responder)
        }
        let stopping = Locked(false)
        var zmqThread: Thread?
        let zmqDone = DispatchSemaphore(value: 0)
        if let endpoint = config.zmq {
            let socket = try ZMQSocket(
                endpoint: endpoint, maxFrame: max(config.maxBody, config.maxModelBytes), timeoutMs: 200)
            let frigate = FrigateZMQ(config: config, models: models, workers: workers, metrics: metrics) {
                console.err($0)
            }
            console.err("vision-tasks serve: Frigate's zmq detector on \(socket.endpoint)")
            let thread = Thread {
                frigate.serve(socket) { stopping.withLock { $0 } }
                zmqDone.signal()
            }
            thread.name = "serve-zmq"
            thread.start()
            zmqThread = thread
        }
        for _ in 0..<config.workers { _ = warm.wait(timeout: .now() + 120) }
        router.markReady()
        let host = config.host.contains(":") ? "[\(config.host)]" : config.host
        console.err("vision-tasks serve: vision-tasks \(BuildInfo.version), \(BuildInfo.runtime); \(BuildInfo.kernels)")
        console.err(
            "vision-tasks serve: listening on http://\(host):\(http.port) — \(models.all.count) model(s), "
                + "\(config.workers) worker(s), queue \(config.maxQueue), timeout \(config.timeoutMs) ms"
                + (config.apiKey == nil ? "" : ", API key required"))
        // Until SIGTERM or SIGINT: expire idle tracking sessions once a second.
        var timeout = timespec(tv_sec: 1, tv_nsec: 0)
        var received: Int32 = -1
        while received < 0 {
            received = sigtimedwait(&signals, nil, &timeout)
            sessions.expire()
        }
        console.err(
            "vision-tasks serve: \(received == SIGTERM ? "SIGTERM" : "SIGINT"): draining (at most "
                + "\(config.drainSeconds) s)"
        )
        router.markDraining()
        if !http.quiesce() { console.err("vision-tasks serve: could not stop listening; new clients wait until exit") }
        let finished = workers.drain(timeout: TimeInterval(config.drainSeconds))
        stopping.withLock { $0 = true }
        if zmqThread != nil { zmqDone.wait() }
        http.stop()
        console.err("vision-tasks serve: stopped\(finished ? "" : " (requests still waiting were answered 504)")")
    }
}
