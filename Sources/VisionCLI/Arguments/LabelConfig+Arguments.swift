import VisionPipeline

/// `label`'s command line.
extension LabelConfig {

    init(_ p: ParsedCommand) throws {
        self.init(modelPath: try ModelZoo.resolve(try TaskArguments.requiredModel(p)))
        threshold = p.float(.threshold)
        maxResults = p.int(.maxResults)
        threads = try p.value(.threads, as: Int.self)
    }
}
