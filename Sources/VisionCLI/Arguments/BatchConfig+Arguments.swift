import VisionPipeline

/// A task command's inputs and how they run, from its command line.
extension BatchConfig {

    init(_ p: ParsedCommand) throws {
        self.init()
        inputs = p.positionals
        every = try p.value(.every, as: Int.self)
        orientation = TaskArguments.orientation(p)
        sequential = p.flag(.sequential)
        workers = p.int(.workers)
        threads = try p.value(.threads, as: Int.self)
        shard = p.string(.shard)
        shardCount = p.int(.shardCount)
        model = p.string(.model) ?? ""
    }
}
