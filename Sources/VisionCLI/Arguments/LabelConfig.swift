/// `label`'s options, parsed once (ML Kit's image labeler).
struct LabelConfig: Sendable {
    var modelPath: String
    var threshold: Float?
    var maxResults: Int?
    var threads = 1

    init(modelPath: String) { self.modelPath = modelPath }

    init(_ p: ParsedCommand) throws {
        self.init(modelPath: try ModelZoo.resolve(try TaskArguments.requiredModel(p)))
        threshold = p.float(.threshold)
        maxResults = p.int(.maxResults)
        threads = p.int(.threads) ?? 1
    }
}
