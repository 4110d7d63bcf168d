import Foundation
import MLKit
import MediaPipeTasksVision

/// What a request to our JSON API asks for: a task (`detect`, `classify`, `label`, `objects` — ML
/// Kit's detector on one picture — or `track`), its model and its options, read from the query as
/// the command line's options (`maxResults`, `scoreThreshold`, `allow`, `deny`, `roi`, `threshold`,
/// `maxObjects`, `maxLabels`, `model`); made into the same task the command line runs.
struct TaskRequest: Sendable {
    enum Kind: String, Sendable {
        case detect, classify, label, objects, track
    }

    let kind: Kind
    /// The model (for `objects` and `track`: the classifier labelling the objects, if any).
    let model: ServeModels.Model?
    /// What makes the task, and what tells two requests' tasks apart (same key, same task).
    let key: String
    /// For `objects` and `track`: the tracking task's configuration.
    let trackConfig: TrackConfig?
    private let make: @Sendable () throws -> BatchTask

    /// Reads `request`'s query for `kind`, with `threads` inference threads per task.
    init(_ kind: Kind, _ request: HTTPRequest, models: ServeModels, threads: Int) throws {
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
                throw ServeError(404, "No \(kind == .detect ? "detector" : "classifier") is served; start with --model.")
            }
        } else {
            model = models.first(.classifier)
        }
        if let model {
            let wanted: ServeModels.Model.Kind = kind == .detect ? .detector : .classifier
            guard model.kind == wanted else {
                throw ServeError(400, "'\(model.name)' is a \(model.kind.rawValue); /v1/\(kind.rawValue) takes a \(wanted.rawValue).")
            }
        }
        self.model = model
        let q = Query(request)
        switch kind {
        case .detect, .classify:
            guard let model else { throw ServeError(404, "No model.") }
            var config = MediaPipeTaskConfig(modelPath: model.path)
            config.threads = threads
            config.maxResults = try q.int("maxResults", -1...1_000_000, nonZero: true)
            if q.text("scoreThreshold") == "model" {
                config.usesModelScoreThreshold = true
            } else {
                config.scoreThreshold = try q.float("scoreThreshold", 0...1)
            }
            config.allow = q.list("allow")
            config.deny = q.list("deny")
            if kind == .classify, let roi = q.text("roi") {
                guard let rect = TaskArguments.roi(roi) else {
                    throw ServeError(400, "roi takes x,y,width,height (normalized, e.g. 0.1,0.1,0.5,0.5), got '\(roi)'.")
                }
                config.regionOfInterest = rect
            }
            key = [kind.rawValue, model.path, q.canonical].joined(separator: "|")
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
            config.threshold = try q.float("threshold", 0...1)
            config.maxResults = try q.int("maxResults", -1_000_000...1_000_000)
            key = [kind.rawValue, model.path, q.canonical].joined(separator: "|")
            trackConfig = nil
            let fixed = config
            make = { () throws -> BatchTask in try LabelTask(fixed) }
        case .objects, .track:
            var config = TrackConfig(modelPath: model?.path)
            config.threads = threads
            config.threshold = try q.float("threshold", 0...1)
            config.maxObjects = try q.int("maxObjects", 1...1000)
            config.maxLabels = try q.int("maxLabels", -1_000_000...1_000_000)
            config.single = q.text("single") == "true"
            key = [kind.rawValue, model?.path ?? "-", q.canonical].joined(separator: "|")
            let fixed = config
            trackConfig = config
            make = { () throws -> BatchTask in try TrackTask(fixed) }
        }
        try q.checkUnknown(Self.accepted[kind] ?? [])
    }

    /// A new task for this request (a worker keeps it for later requests with the same key).
    func makeTask() throws -> BatchTask { try make() }

    /// The query arguments each task takes (others are refused, so a typo is not silently ignored).
    static let accepted: [Kind: Set<String>] = [
        .detect: ["model", "maxResults", "scoreThreshold", "allow", "deny", "api_key"],
        .classify: ["model", "maxResults", "scoreThreshold", "allow", "deny", "roi", "api_key"],
        .label: ["model", "threshold", "maxResults", "api_key"],
        .objects: ["model", "threshold", "maxObjects", "maxLabels", "single", "api_key"],
        .track: ["model", "threshold", "maxObjects", "maxLabels", "single", "timestampMs", "api_key"],
    ]

    /// Typed reads of the query, with messages naming the argument.
    private struct Query {
        let arguments: [(name: String, value: String)]

        init(_ request: HTTPRequest) { arguments = request.query }

        func text(_ name: String) -> String? { arguments.first { $0.name == name }?.value }

        func int(_ name: String, _ range: ClosedRange<Int>, nonZero: Bool = false) throws -> Int? {
            guard let t = text(name) else { return nil }
            guard let v = Int(t), range.contains(v), !(nonZero && v == 0) else {
                throw ServeError(
                    400, "\(name) takes an integer from \(range.lowerBound) to \(range.upperBound)\(nonZero ? ", not 0" : ""), got '\(t)'.")
            }
            return v
        }

        func float(_ name: String, _ range: ClosedRange<Float>) throws -> Float? {
            guard let t = text(name) else { return nil }
            guard let v = Float(t), v.isFinite, range.contains(v) else {
                throw ServeError(400, "\(name) takes a number from \(range.lowerBound) to \(range.upperBound), got '\(t)'.")
            }
            return v
        }

        func list(_ name: String) -> [String] {
            arguments.filter { $0.name == name }.flatMap { $0.value.split(separator: ",").map(String.init) }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        /// The arguments that shape the task, in one canonical text (the task's key).
        var canonical: String {
            arguments.filter { $0.name != "api_key" && $0.name != "timestampMs" && $0.name != "model" }
                .map { "\($0.name)=\($0.value)" }.sorted().joined(separator: "&")
        }

        func checkUnknown(_ accepted: Set<String>) throws {
            if let unknown = arguments.first(where: { !accepted.contains($0.name) }) {
                throw ServeError(
                    400, "Unknown query argument '\(unknown.name)'; this route takes \(accepted.sorted().joined(separator: ", ")).")
            }
        }
    }
}
