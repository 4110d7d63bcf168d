/// Where a task command's results go, parsed once: records (`--jsonl`, `--json`, text), annotated
/// pictures and videos, the HTML report, progress, and whether to resume.
struct OutputConfig: Sendable {
    var jsonl: String?
    var json = false
    var quiet = false
    var resume = false
    var output: String?
    var report: String?
    var progress = "auto"

    init() {}

    init(_ p: ParsedCommand) throws {
        jsonl = p.string(.jsonl)
        json = p.flag(.json)
        quiet = p.flag(.quiet)
        resume = p.flag(.resume)
        output = p.string(.output)
        report = p.string(.report)
        progress = p.string(.progress) ?? "auto"
        if jsonl == "-" && json { throw CLIError.usage("--json and --jsonl - both write to standard output: pick one") }
        if resume && (jsonl == nil || jsonl == "-") {
            throw CLIError.usage("--resume needs --jsonl FILE (the records to resume from)")
        }
    }
}
