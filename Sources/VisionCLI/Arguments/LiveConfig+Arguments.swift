import VisionPipeline

/// `--live`.
extension LiveConfig {
    /// nil without `--live`; a usage error with inputs too, or with options that do not apply.
    init?(_ p: ParsedCommand) throws {
        guard let source = p.string(.live) else { return nil }
        guard p.positionals.isEmpty else { throw CLIError.usage("give inputs or --live SOURCE, not both") }
        if p.flag(.resume) { throw CLIError.usage("--resume does not apply to --live") }
        if p.string(.report) != nil { throw CLIError.usage("--report is for pictures and video files, not --live") }
        self.init(source: source)
    }
}
