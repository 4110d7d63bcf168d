import VisionPipeline

/// A task command's inputs and how they run, from its command line.
extension BatchConfig {

    init(_ p: ParsedCommand) throws {
        self.init()
        inputs = p.positionals
        every = p.int(.every) ?? 1
        orientation = TaskArguments.orientation(p)
        sequential = p.flag(.sequential)
        workers = p.int(.workers)
        threads = p.int(.threads) ?? 1
        shard = p.string(.shard)
        shardCount = p.int(.shardCount)
        model = p.string(.model) ?? ""
    }
}
