import VisionPipeline

/// A task command's outputs, from its command line.
extension OutputConfig {

    init(_ p: ParsedCommand) throws {
        self.init()
        jsonl = p.string(.jsonl)
        json = p.flag(.json)
        quiet = p.flag(.quiet)
        resume = p.flag(.resume)
        output = p.string(.output)
        report = p.string(.report)
        progress = try p.value(.progress, as: String.self)
        if jsonl == "-" && json { throw CLIError.usage("--json and --jsonl - both write to standard output: pick one") }
        if resume && (jsonl == nil || jsonl == "-") {
            throw CLIError.usage("--resume needs --jsonl FILE (the records to resume from)")
        }
    }
}
