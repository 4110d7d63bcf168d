import MediaPipeTasksVision

/// The task options `detect` and `classify` share on the command line.
struct CommonOptions {
    var maxResults: Int?
    var scoreThreshold: Float?
    var modelScoreThreshold: Bool
    var allow: [String]
    var deny: [String]
    var locale: String?
    var threads: Int?
    var fastHybrid: Bool

    /// Reads `--max-results`, `--score-threshold` (a number, or `model` for the model's own), `--allow`, `--deny`, `--locale`, `--threads`, `--fast-hybrid`.
    init(_ args: inout Arguments) throws {
        maxResults = try args.int("max-results")
        if args.peek("score-threshold") == "model" {
            _ = args.string("score-threshold")
            modelScoreThreshold = true
            scoreThreshold = nil
        } else {
            modelScoreThreshold = false
            scoreThreshold = try args.float("score-threshold")
        }
        allow = args.list("allow")
        deny = args.list("deny")
        locale = args.string("locale")
        threads = try args.int("threads")
        if let threads, !(1...BaseOptions.maxThreads).contains(threads) { throw CLIError.usage("--threads must be between 1 and \(BaseOptions.maxThreads), got \(threads)") }
        fastHybrid = args.flag("fast-hybrid")
    }

    /// Sets the task options these flags name; `defaultMaxResults` when `--max-results` is absent.
    func apply(to options: VisionTaskOptions, defaultMaxResults: Int) {
        options.maxResults = maxResults ?? defaultMaxResults
        if let scoreThreshold { options.scoreThreshold = scoreThreshold }
        options.usesModelScoreThreshold = modelScoreThreshold
        options.categoryAllowlist = allow
        options.categoryDenylist = deny
        if let locale { options.displayNamesLocale = locale }
        if let threads { options.baseOptions.numThreads = threads }
        options.baseOptions.optimizeHybridModels = fastHybrid
    }
}
