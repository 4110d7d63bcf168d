import VisionPipeline

/// One command-line option, declared once. Parsing, validation, `--help`, the usage page and the
/// "did you mean" suggestions are all derived from these declarations.
package struct OptionSpec: Sendable {
    /// What an option takes.
    package enum Kind: Sendable {
        /// A boolean switch (`--json`); takes no value.
        case flag
        /// Free text (a path, a name).
        case text
        /// An integer within a range.
        case integer(ClosedRange<Int>)
        /// A finite number within a range, or one of `words` (e.g. `model` for `--score-threshold`).
        case number(ClosedRange<Double>, words: [String] = [])
        /// A comma-separated list; repeating the option appends.
        case list
        /// One of a fixed set of words.
        case choice([String])
    }

    /// The option (its name without the dashes: `max-results`).
    package let id: OptionName
    /// The name without its dashes (`max-results`).
    package var name: String { id.rawValue }
    /// What it takes.
    package let kind: Kind
    /// The placeholder shown in help (`N`, `PATH`, `F`).
    package let valueName: String
    /// The default, as shown in help and used when the option is absent (nil: none).
    package let defaultValue: String?
    /// One line of help.
    package let help: String

    /// Declares `--name`.
    package init(
        _ id: OptionName, _ kind: Kind, _ valueName: String = "", default defaultValue: String? = nil, help: String
    ) {
        self.id = id
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
        switch kind {
        case .flag: self.valueName = ""
        case .choice(let words) where valueName.isEmpty: self.valueName = words.joined(separator: "|")
        default: self.valueName = valueName.isEmpty ? "VALUE" : valueName
        }
    }

    /// Whether the option takes no value.
    package var isFlag: Bool {
        if case .flag = kind { return true }
        return false
    }

    /// Checks one value against the declaration; the message says what was expected.
    func validate(_ value: String) throws {
        switch kind {
        case .flag, .text, .list:
            return
        case .integer(let range):
            guard let v = Int(value) else { throw CLIError.usage("--\(name) expects an integer, got '\(value)'") }
            guard range.contains(v) else {
                throw CLIError.usage("--\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(v)")
            }
        case .number(let range, let words):
            if words.contains(value) { return }
            guard let v = Double(value), v.isFinite else {
                let alternatives = words.isEmpty ? "" : " or " + words.map { "'\($0)'" }.joined(separator: ", ")
                throw CLIError.usage("--\(name) expects a number\(alternatives), got '\(value)'")
            }
            guard range.contains(v) else {
                throw CLIError.usage(
                    "--\(name) must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)), "
                        + "got \(value)"
                )
            }
        case .choice(let words):
            guard words.contains(value) else {
                let hint = Suggestion.closest(to: value, in: words).map { " (did you mean '\($0)'?)" } ?? ""
                throw CLIError.usage("--\(name) must be one of \(words.joined(separator: ", ")), got '\(value)'\(hint)")
            }
        }
    }

    static func format(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }

    /// `--name VALUE`, as help shows it.
    var synopsis: String { isFlag ? "--\(name)" : "--\(name) \(valueName)" }
}
