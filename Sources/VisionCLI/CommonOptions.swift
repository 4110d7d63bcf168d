import MediaPipeTasksVision

/// The task options `detect` and `classify` share on the command line.
struct CommonOptions {
    var maxResults: Int?
    var scoreThreshold: Float?
    var allow: [String]
    var deny: [String]
    var locale: String?
    var threads: Int?
    var fastHybrid: Bool

    /// Reads `--max-results`, `--score-threshold`, `--allow`, `--deny`, `--locale`, `--threads`, `--fast-hybrid`.
    init(_ args: inout Arguments) throws {
        maxResults = try args.int("max-results")
        scoreThreshold = try args.float("score-threshold")
        allow = args.list("allow")
        deny = args.list("deny")
        locale = args.string("locale")
        threads = try args.int("threads")
        if let threads, threads < 1 { throw CLIError.usage("--threads must be at least 1") }
        fastHybrid = args.flag("fast-hybrid")
    }

    func apply(to base: BaseOptions) {
        if let threads { base.numThreads = threads }
        base.optimizeHybridModels = fastHybrid
    }
}
