/// One route of `serve`, declared once: its methods, its path (a last `{segment}` takes any value), whether
/// the API key guards it, the API it belongs to (which shapes its refusals), and what it does. Dispatch,
/// the metrics' route labels, the `GET /v1` index and the route table of the Serving article
/// (Documentation/VisionTasks.docc/Serving.md, checked by the suite) all come from ``all``.
package struct Route: Sendable, Equatable {
    /// What the route does; the router's dispatch switches over it.
    package enum Action: Sendable, Equatable {
        case health, readiness, metrics, app, index, models
        case deepStackDetection, deepStackCustom, deepStackList, updateAvailable, ping
        case doodsDetectors, doodsDetect
        case detect, classify, label, objects, track, trackEnd, video, videoFile
    }

    /// The API a route belongs to: its clients read refusals in its shape.
    package enum Dialect: Sendable, Equatable {
        /// Ours: `{"error": {"domain", "code", "message"}}`.
        case ours
        /// DeepStack's and CodeProject.AI's: `{"success": false, "error", "code"}`.
        case deepStack
        /// DOODS2's: `{"detections": [], "error"}`.
        case doods

        /// A refusal in this API's shape.
        package func failure(_ error: ServeError) -> HTTPResponse {
            switch self {
            case .ours: .json(error.status, error.json, headers: error.headers)
            case .deepStack: DeepStackReply.failure(error.status, error.message, headers: error.headers)
            case .doods: DoodsReply.failure(error.status, error.message, headers: error.headers)
            }
        }
    }

    package let methods: [String]
    package let path: String
    package let action: Action
    /// Whether the API key (when the server has one) is required.
    package let keyed: Bool
    package let dialect: Dialect
    /// What it takes and answers (one line of the index and of the doc).
    package let summary: String

    init(
        _ methods: [String], _ path: String, _ action: Action, keyed: Bool = true, api dialect: Dialect = .ours,
        _ summary: String
    ) {
        self.methods = methods
        self.path = path
        self.action = action
        self.keyed = keyed
        self.dialect = dialect
        self.summary = summary
    }

    /// Every route, in the order the index and the doc list them.
    package static let all: [Route] = [
        Route(
            ["POST"], "/v1/vision/detection", .deepStackDetection, api: .deepStack,
            "DeepStack / CodeProject.AI: multipart `image` (else the first file), `min_confidence` (default 0.4), "
                + "`api_key`; the first detector served"),
        Route(
            ["GET", "POST"], "/v1/vision/custom/list", .deepStackList, api: .deepStack,
            "the detectors' names (`success`, `models`)"),
        Route(
            ["POST"], "/v1/vision/custom/{model}", .deepStackCustom, api: .deepStack,
            "the same as `/v1/vision/detection` with a named detector (unknown: 404)"),
        Route(
            ["GET"], "/v1/status/updateavailable", .updateAvailable, keyed: false, api: .deepStack,
            "CodeProject.AI's version check (Blue Iris' probe): this version, `updateAvailable: false`"),
        Route(
            ["GET"], "/v1/server/status/updateavailable", .updateAvailable, keyed: false, api: .deepStack,
            "the same, at CodeProject.AI's newer path"),
        Route(
            ["GET"], "/v1/server/status/ping", .ping, keyed: false, api: .deepStack,
            "CodeProject.AI's ping: `success`, this version"),
        Route(
            ["GET"], "/detectors", .doodsDetectors, api: .doods,
            "DOODS2 (Home Assistant's `doods`): each detector's `name`, `type`, `model`, `labels`, `width`, "
                + "`height`; the first also as `default`"),
        Route(
            ["POST"], "/detect", .doodsDetect, api: .doods,
            "DOODS2: JSON `data` (base64 picture), `detector_name`, `detect` (label → minimum 0–100, `*`), "
                + "`regions`, `id` → `detections` (`top`, `left`, `bottom`, `right` 0–1, `label`, `confidence` "
                + "0–100); key: `doods-auth-key` header"),
        Route(
            ["POST"], "/v1/detect", .detect,
            "a picture (the body or a multipart `image`) → the record `detect --jsonl` writes (`source`: the file's "
                + "name, or `request`; `width`, `height`; `detections`)"),
        Route(["POST"], "/v1/classify", .classify, "a picture → `classify`'s record (`classifications`)"),
        Route(["POST"], "/v1/label", .label, "a picture → `label`'s record (ML Kit's `labels`)"),
        Route(["POST"], "/v1/objects", .objects, "a picture → ML Kit's single-image `objects`"),
        Route(
            ["POST"], "/v1/track/{session}", .track,
            "a frame (`?timestampMs=N`, increasing; default: its arrival) → ML Kit's stream-mode objects with "
                + "tracking IDs"),
        Route(["DELETE"], "/v1/track/{session}", .trackEnd, "ends the tracking session"),
        Route(
            ["POST"], "/v1/video", .video,
            "a video (`?task=track` — the default — or `detect`, with `model`, `scoreThreshold`, `maxResults`) → "
                + "`frames`, its `records`, and `video`: where its annotated copy downloads"),
        Route(["GET"], "/v1/videos/{id}", .videoFile, "an annotated video `/v1/video` made (kept 10 minutes)"),
        Route(["GET"], "/v1/models", .models, "the models: name, file, kind, input shape and type"),
        Route(["GET"], "/v1", .index, keyed: false, "the models and these routes, as text"),
        Route(["GET", "HEAD"], "/healthz", .health, keyed: false, "alive"),
        Route(["GET", "HEAD"], "/readyz", .readiness, keyed: false, "ready: the models loaded, not draining"),
        Route(["GET"], "/metrics", .metrics, keyed: false, "Prometheus text"),
        Route(["GET"], "/", .app, keyed: false, "the browser app"),
        Route(["GET"], "/index.html", .app, keyed: false, "the browser app"),
    ]

    /// The value of the path's `{segment}` in `path` ("" for a fixed path), or nil when `path` is not this
    /// route's.
    package func parameter(in path: String) -> String? {
        guard let brace = self.path.firstIndex(of: "{") else { return path == self.path ? "" : nil }
        let prefix = self.path[..<brace]
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }

    /// The routes whose path `path` is (fixed paths first: `/v1/vision/custom/list` is not a model's).
    package static func matching(_ path: String) -> [(route: Route, parameter: String)] {
        let fixed = all.filter { !$0.path.contains("{") && $0.path == path }.map { ($0, "") }
        if !fixed.isEmpty { return fixed }
        return all.compactMap { route in route.parameter(in: path).map { (route, $0) } }
    }

    /// The API whose shape `path`'s refusals take: its route's, else DeepStack's under `/v1/vision/`, else ours.
    /// (`matches`: the path's ``matching(_:)``, when the caller has it already.)
    package static func dialect(_ path: String, matches: [(route: Route, parameter: String)]? = nil) -> Dialect {
        (matches ?? matching(path)).first?.route.dialect ?? (path.hasPrefix("/v1/vision/") ? .deepStack : .ours)
    }

    /// The route label in the metrics: the declared path (ids and model names left out), or `other`.
    package static func label(_ path: String, matches: [(route: Route, parameter: String)]? = nil) -> String {
        (matches ?? matching(path)).first?.route.path ?? "other"
    }

    /// The route table of Documentation/VisionTasks.docc/Serving.md (Markdown).
    package static var markdownTable: String {
        (["| route | key | what |", "|---|---|---|"]
            + all.map {
                "| `\($0.methods.joined(separator: ", ")) \($0.path)` | \($0.keyed ? "yes" : "no") | \($0.summary) |"
            })
            .joined(separator: "\n")
    }
}
