import FileInput
import Foundation
import Locking
import MLKit
import MediaPipeTasksVision
import ServeProtocol
import Video
import VisionCore
import VisionPipeline

/// Routes `serve`'s HTTP requests. On the daemon's thread it only reads the request, checks the key,
/// the route and the options, and answers what needs no model (health, metrics, the model list,
/// refusals); the rest becomes a job for the workers, who decode the picture, run the task — the
/// command line's own `detect`, `classify`, `label` and `track` — and answer.
package final class ServeRouter: Sendable {
    package let config: ServeConfig
    package let models: ServeModels
    package let workers: ServeWorkers
    package let metrics: ServeMetrics
    package let sessions: TrackSessions
    /// The annotated videos `/v1/video` made, kept 10 minutes.
    package let videos: ServeVideos
    private let state = Locked(State())
    private let apiKeyDigest: String?

    private struct State {
        var ready = false
        var draining = false
    }

    package init(
        config: ServeConfig, models: ServeModels, workers: ServeWorkers, metrics: ServeMetrics, sessions: TrackSessions
    ) {
        self.config = config
        self.models = models
        self.workers = workers
        self.metrics = metrics
        self.sessions = sessions
        videos = ServeVideos()
        apiKeyDigest = config.apiKey.flatMap { try? SHA256.hex(Array($0.utf8)) }
    }

    /// Ready to serve (the models are loaded) — `/readyz` says so.
    package func markReady() { state.withLock { $0.ready = true } }
    /// Draining: `/readyz` fails and new work is refused (503) while the work taken finishes.
    package func markDraining() { state.withLock { $0.draining = true } }
    private var draining: Bool { state.withLock { $0.draining } }

    // MARK: routes

    /// Handles one request (on the daemon's thread: quickly).
    package func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        let started = DispatchTime.now().uptimeNanoseconds
        // The path's routes, matched once: the metrics' label, the refusals' shape and the dispatch read them.
        let matches = Route.matching(request.path)
        let route = Route.label(request.path, matches: matches)
        let answer = Answer(responder: responder, route: route, started: started, metrics: metrics)
        let dialect = Route.dialect(request.path, matches: matches)
        do {
            try dispatch(request, answer, matches: matches)
        } catch let e as ServeError {
            if let reason = e.reason { metrics.refused(reason) }
            answer.send(dialect.failure(e))
        } catch {
            answer.send(dialect.failure(ServeError(500, "\(error)")))
        }
    }

    private func dispatch(
        _ request: HTTPRequest, _ answer: Answer, matches: [(route: Route, parameter: String)]
    ) throws {
        let path = request.path
        if matches.contains(where: \.route.keyed) || (matches.isEmpty && path.hasPrefix("/v1/")) {
            try authorize(request)
        }
        guard !matches.isEmpty else { throw ServeError(404, "No route \(path); see GET / for the routes.") }
        guard let (route, parameter) = matches.first(where: { $0.route.methods.contains(request.method) }) else {
            let allowed = matches.flatMap(\.route.methods).joined(separator: ", ")
            throw ServeError(
                405, "\(request.method) is not allowed on \(path); use \(allowed).", headers: [("Allow", allowed)])
        }
        switch route.action {
        case .health:
            answer.send(.json(200, .object([("status", .string("ok"))])))
        case .readiness:
            let s = state.withLock { $0 }
            let ready = s.ready && !s.draining
            answer.send(
                .json(
                    ready ? 200 : 503,
                    .object([
                        ("ready", .bool(ready)), ("draining", .bool(s.draining)), ("models", .int(models.all.count)),
                    ])))
        case .metrics:
            answer.send(
                .text(
                    200,
                    metrics.text(
                        queueDepth: workers.depth, inFlight: workers.inFlight, sessions: sessions.count,
                        models: models.all.count),
                    contentType: "text/plain; version=0.0.4; charset=utf-8"))
        case .app:
            guard let page = ServeApp.html else {
                throw ServeError(
                    500, "The app's page is missing: install VisionTasks_VisionServer.resources beside the binary.")
            }
            answer.send(.text(200, page, contentType: "text/html; charset=utf-8"))
        case .index:
            answer.send(.text(200, Server.index(models.all)))
        case .models:
            answer.send(.json(200, .object([("models", .array(models.all.map(\.json)))])))
        case .deepStackList:
            answer.send(
                .json(
                    200,
                    .object(
                        [
                            ("success", .bool(true)),
                            ("models", .array(models.all.filter { $0.kind == .detector }.map { .string($0.name) })),
                        ]
                            + DeepStackReply.module("list-custom"))))
        case .updateAvailable:
            answer.send(.json(200, DeepStackReply.updateAvailable(version: BuildInfo.version)))
        case .ping:
            answer.send(.json(200, DeepStackReply.ping(version: BuildInfo.version)))
        case .doodsDetectors:
            answer.send(.json(200, DoodsReply.detectors(models.all)))
        case .doodsDetect:
            try doodsDetect(request, answer)
        case .deepStackDetection:
            guard let model = models.first(.detector) else {
                throw ServeError(404, "No detector is served; start with --model.")
            }
            try deepStackDetect(request, answer, model: model, command: "detect")
        case .deepStackCustom:
            guard let model = models.find(parameter), model.kind == .detector else {
                throw ServeError(404, "No detector named '\(parameter)'; POST /v1/vision/custom/list lists them.")
            }
            try deepStackDetect(request, answer, model: model, command: "custom")
        case .detect: try run(.detect, request, answer)
        case .classify: try run(.classify, request, answer)
        case .label: try run(.label, request, answer)
        case .objects: try run(.objects, request, answer)
        case .video: try video(request, answer)
        case .videoFile:
            guard let bytes = videos.file(parameter) else {
                throw ServeError(404, "No annotated video '\(parameter)' (they last 10 minutes).")
            }
            answer.send(HTTPResponse(status: 200, contentType: "video/mp4", body: bytes))
        case .track:
            try track(parameter, request, answer)
        case .trackEnd:
            guard sessions.remove(parameter) else { throw ServeError(404, "No tracking session '\(parameter)'.") }
            answer.send(.json(200, .object([("ended", .string(parameter))])))
        }
    }

    /// The key, when one is required: DeepStack's `api_key` form field, DOODS' `doods-auth-key` header,
    /// `Authorization: Bearer KEY`, or the `api_key` query argument; compared in constant time (their
    /// digests).
    private func authorize(_ request: HTTPRequest) throws {
        guard let expected = apiKeyDigest else { return }
        var given = request.field("api_key") ?? request.headers["doods-auth-key"] ?? request.argument("api_key")
        if let auth = request.headers["authorization"], auth.lowercased().hasPrefix("bearer ") {
            given = String(auth.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        let digest = (try? SHA256.hex(Array((given ?? "").utf8))) ?? ""
        var difference: UInt8 = digest.utf8.count == expected.utf8.count ? 0 : 1
        for (a, b) in zip(digest.utf8, expected.utf8) { difference |= a ^ b }
        guard given != nil, difference == 0 else { throw ServeError(401, "Incorrect api key", reason: "unauthorized") }
    }

    /// The request's picture, or the refusal saying why there is none.
    private func picture(_ request: HTTPRequest) throws -> (bytes: [UInt8], name: String?) {
        try checkBody(request)
        guard let picture = request.picture, !picture.bytes.isEmpty else {
            throw ServeError(
                400, "No picture: post a JPEG or PNG as the body, or as a multipart form's 'image' part (DeepStack's).")
        }
        return picture
    }

    /// The refusal of a body that did not arrive whole: larger than `--max-body`, or a form that cannot be read.
    private func checkBody(_ request: HTTPRequest) throws {
        switch request.bodyState {
        case .tooLarge:
            throw ServeError(
                413, "The request body is larger than \(config.maxBody) bytes (--max-body).", reason: "too_large")
        case .malformedForm: throw ServeError(400, "The multipart form could not be read.")
        case .complete: break
        }
    }

    /// Queues `job`; a full queue or draining refuses it (503 with Retry-After). With `--delay-ms` (a
    /// testing aid: a slow server) each job waits that long before it runs.
    private func submit(
        _ answer: Answer, dialect: Route.Dialect, _ work: @escaping @Sendable (WorkerTasks) -> Void
    ) throws {
        let delay = Double(config.delayMs) / 1000
        let run: @Sendable (WorkerTasks) -> Void = { tasks in
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            work(tasks)
        }
        guard !draining else {
            throw ServeError(503, "The server is shutting down.", reason: "draining", headers: [("Retry-After", "5")])
        }
        let deadline = answer.started + UInt64(config.timeoutMs) * 1_000_000
        let timeout = config.timeoutMs
        let metrics = metrics
        let job = ServeWorkers.Job(
            deadline: deadline, run: run,
            expired: {
                metrics.refused("deadline")
                let message = "The request waited longer than \(timeout) ms (--timeout-ms) for a worker."
                answer.send(dialect.failure(ServeError(504, message)))
            })
        guard workers.submit(job) else {
            throw ServeError(
                503, "\(config.maxQueue) requests are waiting already (--max-queue); try again shortly.",
                reason: "queue_full",
                headers: [("Retry-After", "1")])
        }
    }

    // MARK: DeepStack

    private func deepStackDetect(
        _ request: HTTPRequest, _ answer: Answer, model: ServeModels.Model, command: String
    ) throws {
        let picture = try picture(request)
        var minConfidence = DeepStackReply.defaultMinConfidence
        if let text = request.field("min_confidence") ?? request.argument("min_confidence"), !text.isEmpty {
            guard let value = Float(text), value.isFinite, (0...1).contains(value) else {
                throw ServeError(400, "min_confidence takes a number from 0 to 1, got '\(text)'.")
            }
            minConfidence = value
        }
        let limit = self.config.maxPredictions
        let threshold = minConfidence
        try detectionJob(answer, dialect: .deepStack, model: model, picture: picture.bytes) {
            result, _, inference, t0 in
            let now = DispatchTime.now().uptimeNanoseconds
            let body = DeepStackReply.success(
                DeepStackReply.predictions(result, minConfidence: threshold, limit: limit), command: command,
                inferenceMs: inference * 1000, processMs: Double(now - t0) / 1e6,
                roundTripMs: Double(now - answer.started) / 1e6)
            return .json(200, body)
        } failure: { failure in
            // DeepStack's wording for a picture it cannot read, with the decoder's reason.
            let status = failure.httpStatus
            return DeepStackReply.failure(
                status, status == 400 ? "invalid image file: \(failure.message)" : failure.message)
        }
    }

    /// A detection service's job (DeepStack's, DOODS'), on a worker: `model`'s detections on `picture` —
    /// every one, as Frigate's ZMQ detector and the warm-up run it; the service filters them — made into
    /// the answer by `reply` (with the decoded picture, the inference seconds and when the job started), or
    /// a failure by `failure`.
    private func detectionJob(
        _ answer: Answer, dialect: Route.Dialect, model: ServeModels.Model, picture: [UInt8],
        reply: @escaping @Sendable (ObjectDetectorResult, Picture, Double, UInt64) -> HTTPResponse,
        failure: @escaping @Sendable (ItemFailure) -> HTTPResponse
    ) throws {
        let config = model.detectorConfig(threads: self.config.threads)
        let key = model.detectorTaskKey
        let metrics = metrics
        try submit(answer, dialect: dialect) { tasks in
            let t0 = DispatchTime.now().uptimeNanoseconds
            do {
                let task = try tasks.task(key, as: DetectTask.self) { try DetectTask(config) }
                let decoded = try Picture.load(bytes: picture, jpeg: task.jpegDecoding)
                let result = try task.detections(decoded)
                let inference = task.lastInferenceSeconds
                metrics.inference(model: model.name, seconds: inference)
                answer.send(reply(result, decoded, inference, t0))
            } catch {
                answer.send(failure(ItemFailure(error)))
            }
        }
    }

    // MARK: DOODS

    /// DOODS2's `/detect`: the JSON request read and checked on the daemon's thread, the detector run as
    /// DeepStack's route runs it (every detection), DOODS2's filters applied to `detect`'s boxes.
    private func doodsDetect(_ request: HTTPRequest, _ answer: Answer) throws {
        try checkBody(request)
        let parsed: DoodsRequest
        do {
            parsed = try DoodsRequest.parse(request.body)
        } catch let refusal as DoodsRequest.Refusal {
            throw ServeError(400, refusal.message)
        }
        guard let model = DoodsReply.detector(parsed.detectorName, in: models) else {
            throw ServeError(
                400, "unknown detector name: \(parsed.detectorName) (GET /detectors lists them)")
        }
        let unknown = DoodsReply.unknownLabels(parsed, model: model)
        guard unknown.isEmpty else {
            throw ServeError(
                400,
                "\(model.name) has no label \(unknown.prefix(5).map { "'\($0)'" }.joined(separator: ", ")); "
                    + "GET /detectors lists its labels ('*': any).")
        }
        try detectionJob(answer, dialect: .doods, model: model, picture: parsed.picture) { result, decoded, _, t0 in
            let found = DoodsReply.detections(
                result, width: decoded.shownWidth, height: decoded.shownHeight, request: parsed)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
            return .json(200, DoodsReply.success(id: parsed.id, found, durationMs: ms))
        } failure: { failure in
            DoodsReply.failure(failure.httpStatus, failure.message, id: parsed.id)
        }
    }

    // MARK: our JSON API

    private func run(_ kind: TaskRequest.Kind, _ request: HTTPRequest, _ answer: Answer) throws {
        let task = try TaskRequest(kind, request, models: models, threads: config.threads)
        let picture = try picture(request)
        let source = picture.name.flatMap { $0.isEmpty ? nil : $0 } ?? "request"
        let metrics = metrics
        try submit(answer, dialect: .ours) { tasks in
            do {
                let made = try tasks.task(task.key) { try task.makeTask() }
                let decoded = try Picture.load(bytes: picture.bytes, jpeg: made.jpegDecoding)
                let record = try made.picture(decoded)
                if let seconds = record.stages?.inference, let model = task.model {
                    metrics.inference(model: model.name, seconds: seconds)
                }
                answer.send(
                    .json(200, .object(Self.head(source, decoded) + record.fields), headers: Self.timing(record)))
            } catch {
                let failure = ItemFailure(error)
                answer.send(
                    .json(
                        failure.httpStatus, .object(RecordHead.failure(source, failure)))
                )
            }
        }
    }

    /// A record's stage times as a `Server-Timing` header (milliseconds; the app shows the inference).
    package static func timing(_ record: TaskRecord) -> [(name: String, value: String)] {
        guard let s = record.stages else { return [] }
        let ms = { (v: Double) in String(format: "%.2f", v * 1000) }
        return [
            (
                "Server-Timing",
                "preprocess;dur=\(ms(s.preprocess)), inference;dur=\(ms(s.inference)), "
                    + "postprocess;dur=\(ms(s.postprocess))"
            )
        ]
    }

    /// A tracked frame's time as a `Server-Timing` header: ML Kit's `results(in:)` is one call (the
    /// localizer, the tracker and the classifier on new objects), so its whole duration is the inference.
    package static func trackTiming(_ seconds: Double) -> [(name: String, value: String)] {
        [("Server-Timing", "inference;dur=\(String(format: "%.2f", seconds * 1000));desc=\"ML Kit process\"")]
    }

    /// `/v1/video?task=track|detect`: the video posted, run through the pipeline's `track` (ML Kit's
    /// stream mode: tracking IDs) or `detect` (video mode) with its records and its annotated H.264 copy;
    /// the reply holds the records and where to download the video.
    private func video(_ request: HTTPRequest, _ answer: Answer) throws {
        if let missing = VideoLibrary.unavailableReason {
            throw ServeError(501, "This server cannot read video: \(missing).")
        }
        let q = QueryReader(request.query)
        let task = q.text("task") ?? "track"
        guard task == "track" || task == "detect" else {
            throw ServeError(400, "task takes track or detect, got '\(task)'.")
        }
        let named = try q.text("model").map { name in
            guard let model = models.find(name) else { throw ServeError(404, "No model named '\(name)'.") }
            return model
        }
        let threads = config.threads
        let makeTask: @Sendable () throws -> BatchTask
        do {
            if task == "detect" {
                guard let model = named ?? models.first(.detector) else {
                    throw ServeError(404, "No detector is served.")
                }
                var detect = MediaPipeTaskConfig(modelPath: model.path)
                detect.threads = threads
                detect.scoreThreshold = try q.float("scoreThreshold", OptionRanges.scoreThreshold)
                detect.maxResults = try q.int("maxResults", OptionRanges.maxResults, nonZero: true)
                try q.checkKnown(["task", "model", "scoreThreshold", "maxResults", "api_key"])
                let fixed = detect
                makeTask = { try DetectTask(fixed) }
            } else {
                var track = TrackConfig(modelPath: named?.path)
                track.threads = threads
                try q.checkKnown(["task", "model", "api_key"])
                let fixed = track
                makeTask = { try TrackTask(fixed) }
            }
        } catch let refusal as QueryReader.Refusal {
            throw ServeError(400, refusal.message)
        }
        let upload = try picture(request)
        let videos = videos
        try submit(answer, dialect: .ours) { _ in
            do {
                answer.send(try videos.run(upload.bytes, makeTask: makeTask))
            } catch let e as ServeError {
                answer.send(.json(e.status, e.json))
            } catch {
                answer.send(.json(500, ServeError(500, "\(error)").json))
            }
        }
    }

    /// A picture's record head, as `--jsonl` writes it.
    package static func head(_ source: String, _ picture: Picture) -> [(String, JSONValue)] {
        RecordHead.picture(source, width: picture.shownWidth, height: picture.shownHeight)
    }

    private func track(_ id: String, _ request: HTTPRequest, _ answer: Answer) throws {
        guard TrackSessions.isValid(id) else {
            throw ServeError(400, "A session id is 1 to 64 letters, digits, '-' or '_'.")
        }
        let task = try TaskRequest(.track, request, models: models, threads: config.threads)
        let timestamp = try request.argument("timestampMs").map { text in
            guard let value = Int(text), value >= 0 else {
                throw ServeError(400, "timestampMs takes a whole number ≥ 0, got '\(text)'.")
            }
            return value
        }
        let picture = try picture(request)
        let session = try sessions.session(id, key: task.key)
        let received = Int(answer.started / 1_000_000)
        try submit(answer, dialect: .ours) { _ in
            session.lock.lock()
            defer { session.lock.unlock() }
            do {
                let made = try session.task ?? TrackTask(task.trackConfig ?? TrackConfig(modelPath: task.model?.path))
                session.task = made
                let decoded = try Picture.load(bytes: picture.bytes)
                // Frames must go forward in time: a frame without a timestamp is timed by its arrival.
                let ms = timestamp ?? received
                if let last = session.lastTimestamp, ms <= last {
                    throw ServeError(400, "timestampMs must increase within a session: \(ms) after \(last).")
                }
                session.lastTimestamp = ms
                session.frames += 1
                let rgb = decoded.shown.convertedToRGB()
                let started = Clock.now()
                let record = try made.frame(VideoFrame(number: session.frames, timestampMs: ms, bitmap: rgb), video: 1)
                let seconds = Clock.now() - started
                let head = RecordHead.frame(
                    id, number: session.frames, timestampMs: ms, width: rgb.width, height: rgb.height)
                answer.send(.json(200, .object(head + record.fields), headers: Self.trackTiming(seconds)))
            } catch let e as ServeError {
                answer.send(.json(e.status, e.json))
            } catch {
                let failure = ItemFailure(error)
                answer.send(
                    .json(failure.httpStatus, .object(RecordHead.failure(id, failure))))
            }
        }
    }
}

/// One request's answer: sent once, timed and counted.
package struct Answer: Sendable {
    package let responder: HTTPResponder
    package let route: String
    /// When the request arrived (uptime nanoseconds).
    package let started: UInt64
    package let metrics: ServeMetrics

    package func send(_ response: HTTPResponse) {
        guard responder.respond(response) else { return }
        metrics.request(
            route: route, status: response.status, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        )
    }
}
