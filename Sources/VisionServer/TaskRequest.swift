import Foundation
import MLKit
import MediaPipeTasksVision
import ServeProtocol
import VisionPipeline

/// What a request to our JSON API asks for: a task (`detect`, `classify`, `label`, `objects` — ML
/// Kit's detector on one picture — or `track`), its model and its options, read from the query as
/// the command line's options (`maxResults`, `scoreThreshold`, `allow`, `deny`, `roi`, `threshold`,
/// `maxObjects`, `maxLabels`, `model`); made into the same task the command line runs.
package struct TaskRequest: Sendable {
    package enum Kind: String, Sendable {
        case detect, classify, label, objects, track
    }

    package let kind: Kind
    /// The model (for `objects` and `track`: the classifier labelling the objects, if any).
    package let model: ServeModels.Model?
    /// What makes the task, and what tells two requests' tasks apart (same key, same task).
    package let key: String
    /// For `objects` and `track`: the tracking task's configuration.
    package let trackConfig: TrackConfig?
    private let make: @Sendable () throws -> BatchTask

    /// Reads `request`'s query for `kind`, with `threads` inference threads per task.
    package init(_ kind: Kind, _ request: HTTPRequest, models: ServeModels, threads: Int) throws {
        do {
            try self.init(kind, request, QueryReader(request.query), models: models, threads: threads)
        } catch let refusal as QueryReader.Refusal {
            throw ServeError(400, refusal.message)
        }
    }

    private init(_ kind: Kind, _ request: HTTPRequest, _ q: QueryReader, models: ServeModels, threads: Int) throws {
        self.kind = kind
        let named = request.argument("model")
        var model: ServeModels.Model?
        if let named {
            guard let found = models.find(named) else {
                throw ServeError(404, "No model named '\(named)'; GET /v1/models lists them.")
            }
            model = found
        } else if kind != .objects && kind != .track {
            model = models.first(kind == .detect ? .detector : .classifier)
            if model == nil {
                throw ServeError(
                    404, "No \(kind == .detect ? "detector" : "classifier") is served; start with --model.")
            }
        } else {
            model = models.first(.classifier)
        }
        if let model {
            let wanted: ServeModels.Model.Kind = kind == .detect ? .detector : .classifier
            guard model.kind == wanted else {
                throw ServeError(
                    400, "'\(model.name)' is a \(model.kind.rawValue); /v1/\(kind.rawValue) takes a \(wanted.rawValue)."
                )
            }
        }
        self.model = model
        switch kind {
        case .detect, .classify:
            guard let model else { throw ServeError(404, "No model.") }
            var config = MediaPipeTaskConfig(modelPath: model.path)
            config.threads = threads
            config.maxResults = try q.int("maxResults", OptionRanges.maxResults, nonZero: true)
            if q.text("scoreThreshold") == "model" {
                config.usesModelScoreThreshold = true
            } else {
                config.scoreThreshold = try q.float("scoreThreshold", OptionRanges.scoreThreshold)
            }
            config.allow = q.list("allow")
            config.deny = q.list("deny")
            if kind == .classify, let r = try q.region("roi") {
                config.regionOfInterest = CGRect(x: r.x, y: r.y, width: r.width, height: r.height)
            }
            key = [kind.rawValue, model.path, q.canonical(excluding: Self.unshaping)].joined(separator: "|")
            trackConfig = nil
            let fixed = config
            if kind == .detect {
                make = { () throws -> BatchTask in try DetectTask(fixed) }
            } else {
                make = { () throws -> BatchTask in try ClassifyTask(fixed) }
            }
        case .label:
            guard let model else { throw ServeError(404, "No model.") }
            var config = LabelConfig(modelPath: model.path)
            config.threads = threads
            config.threshold = try q.float("threshold", OptionRanges.confidence)
            config.maxResults = try q.int("maxResults", OptionRanges.labelCount)
            key = [kind.rawValue, model.path, q.canonical(excluding: Self.unshaping)].joined(separator: "|")
            trackConfig = nil
            let fixed = config
            make = { () throws -> BatchTask in try LabelTask(fixed) }
        case .objects, .track:
            var config = TrackConfig(modelPath: model?.path)
            config.threads = threads
            config.threshold = try q.float("threshold", OptionRanges.confidence)
            config.maxObjects = try q.int("maxObjects", OptionRanges.maxObjects)
            config.maxLabels = try q.int("maxLabels", OptionRanges.labelCount)
            config.single = q.text("single") == "true"
            key = [kind.rawValue, model?.path ?? "-", q.canonical(excluding: Self.unshaping)].joined(separator: "|")
            let fixed = config
            trackConfig = config
            make = { () throws -> BatchTask in try TrackTask(fixed) }
        }
        try q.checkKnown(Self.accepted[kind] ?? [])
    }

    /// A new task for this request (a worker keeps it for later requests with the same key).
    package func makeTask() throws -> BatchTask { try make() }

    /// The arguments that do not shape the task (left out of its key).
    package static let unshaping: Set<String> = ["api_key", "timestampMs", "model"]

    /// The query arguments each task takes (others are refused, so a typo is not silently ignored).
    package static let accepted: [Kind: Set<String>] = [
        .detect: ["model", "maxResults", "scoreThreshold", "allow", "deny", "api_key"],
        .classify: ["model", "maxResults", "scoreThreshold", "allow", "deny", "roi", "api_key"],
        .label: ["model", "threshold", "maxResults", "api_key"],
        .objects: ["model", "threshold", "maxObjects", "maxLabels", "single", "api_key"],
        .track: ["model", "threshold", "maxObjects", "maxLabels", "single", "timestampMs", "api_key"],
    ]
}
