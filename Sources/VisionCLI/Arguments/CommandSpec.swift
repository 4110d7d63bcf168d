import VisionPipeline

/// One `vision-tasks` command, declared once: its name, what it does, its positional arguments
/// and its options. ``ParsedCommand`` parses against it; `--help`, the usage page and the "did you
/// mean" suggestions are generated from it, so they cannot drift from what the parser accepts.
struct CommandSpec: Sendable {
    /// The command's name (`detect`).
    let name: String
    /// One line: what the command does.
    let summary: String
    /// The positional arguments as help shows them (`INPUT...`).
    let positionalName: String
    /// What the positional arguments are.
    let positionalHelp: String
    /// How many positional arguments are accepted.
    let positionalCount: ClosedRange<Int>
    /// The options, in help order.
    let options: [OptionSpec]
    /// Extra help paragraphs (examples, notes).
    let notes: String
    /// Runs the parsed command.
    let run: @Sendable (ParsedCommand, Console) throws -> Void

    init(
        name: String, summary: String, positionals: String = "", positionalHelp: String = "",
        count: ClosedRange<Int> = 0...0,
        options: [OptionSpec], notes: String = "", run: @escaping @Sendable (ParsedCommand, Console) throws -> Void
    ) {
        self.name = name
        self.summary = summary
        positionalName = positionals
        self.positionalHelp = positionalHelp
        positionalCount = count
        self.options = options
        self.notes = notes
        self.run = run
    }

    /// The declaration of `--name`, if the command has it.
    func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// The command's `--help` page.
    var help: String {
        var lines = [
            "vision-tasks \(name) — \(summary)", "",
            "Usage: vision-tasks \(name)\(positionalName.isEmpty ? "" : " " + positionalName) [options]",
        ]
        if !positionalHelp.isEmpty { lines += ["", "  \(positionalName)", "      \(positionalHelp)"] }
        lines += ["", "Options:"]
        let width = min(34, (options.map { $0.synopsis.count }.max() ?? 0) + 2)
        for o in options {
            var text = o.help
            if let d = o.defaultValue { text += " (default: \(d))" }
            let left = "  " + o.synopsis
            if left.count + 1 > width + 2 {
                lines.append(left)
                lines.append(String(repeating: " ", count: width + 3) + text)
            } else {
                lines.append(left.padding(toLength: width + 3, withPad: " ", startingAt: 0) + text)
            }
        }
        lines.append("  --help".padding(toLength: width + 3, withPad: " ", startingAt: 0) + "this page")
        if !notes.isEmpty { lines += ["", notes] }
        return lines.joined(separator: "\n")
    }
}
