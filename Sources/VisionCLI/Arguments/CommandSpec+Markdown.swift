/// The command-line reference of the documentation (Documentation/VisionTasks.docc/CommandLine.md), generated
/// from the same declarations as `--help`, so the page cannot drift from what the parser accepts.
extension CommandSpec {
    /// The command's section: what it does, its usage line, its positional arguments, a table of its options
    /// (value, default, what it does) and its notes.
    var markdown: String {
        var lines = [
            "### \(name)", "", summary.prefix(1).uppercased() + summary.dropFirst() + ".", "",
            "`vision-tasks \(name)\(positionalName.isEmpty ? "" : " " + positionalName) [options]`",
        ]
        if !positionalHelp.isEmpty { lines += ["", "`\(positionalName)`: \(positionalHelp)."] }
        if options.isEmpty {
            lines += ["", "No options."]
        } else {
            lines += ["", "| option | value | default | what it does |", "|---|---|---|---|"]
        }
        for option in options {
            let value = option.isFlag ? "" : "`\(Self.cell(option.valueName))`"
            let fallback = option.defaultValue.map { "`\(Self.cell($0))`" } ?? ""
            lines.append("| `--\(option.name)` | \(value) | \(fallback) | \(Self.cell(option.help)) |")
        }
        if !notes.isEmpty { lines += ["", "```text", notes, "```"] }
        return lines.joined(separator: "\n")
    }

    /// `text` in a table cell: its pipes escaped.
    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}

extension VisionTasksCommand {
    /// Every command's ``CommandSpec/markdown``, in the order of the usage page.
    package static var markdownReference: String { commands.map(\.markdown).joined(separator: "\n\n") }
}
