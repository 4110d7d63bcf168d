import Foundation
import VisionPipeline

/// A command line parsed and validated against a ``CommandSpec``: every option is declared, every
/// value has the declared kind and range, and absent options read as their declared defaults.
struct ParsedCommand {
    let spec: CommandSpec
    /// The positional arguments, in order.
    let positionals: [String]
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `args` (without the program and command names): `--name value`, `--name=value`,
    /// `--flag`, positionals, and `--` before positionals that start with dashes. Throws
    /// ``CLIError/usage(_:)`` with a suggestion for unknown options.
    init(_ spec: CommandSpec, _ args: [String]) throws {
        self.spec = spec
        var positionals: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            i += 1
            if a == "--" {
                positionals += args[i...]
                break
            }
            guard a.hasPrefix("--") else {
                if a.hasPrefix("-"), a != "-" {
                    throw CLIError.usage("\(spec.name): unknown option \(a) (options are spelled --name)")
                }
                positionals.append(a)
                continue
            }
            var name = String(a.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = spec.option(name) else {
                let hint =
                    Suggestion.closest(to: name, in: spec.options.map(\.name)).map { " — did you mean --\($0)?" } ?? ""
                throw CLIError.usage("\(spec.name): unknown option --\(name)\(hint)")
            }
            if option.isFlag {
                guard value == nil else { throw CLIError.usage("--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            if value == nil {
                guard i < args.count else { throw CLIError.usage("--\(name) needs a value (\(option.valueName))") }
                // `--model --json` is a forgotten value, not a model named "--json" (write --name=--value for one).
                guard !args[i].hasPrefix("--") else {
                    throw CLIError.usage("--\(name) needs a value (\(option.valueName)), got the option \(args[i])")
                }
                value = args[i]
                i += 1
            }
            let v = value ?? ""
            if case .list = option.kind {} else { try option.validate(v) }
            values[name, default: []].append(v)
        }
        guard spec.positionalCount.contains(positionals.count) else {
            let what = spec.positionalName.isEmpty ? "no arguments" : spec.positionalName
            if positionals.count < spec.positionalCount.lowerBound {
                throw CLIError.usage("\(spec.name) needs \(what)")
            }
            let hint =
                positionals.first(where: { p in Suggestion.closest(to: p, in: spec.options.map(\.name)) != nil })
                .map { " ('\($0)' is not an option; options start with --)" } ?? ""
            throw CLIError.usage("\(spec.name) takes \(what), got \(positionals.count) arguments\(hint)")
        }
        self.positionals = positionals
    }

    /// Whether `--name` was given (flags and valued options alike).
    func has(_ option: OptionName) -> Bool { flags.contains(option.rawValue) || values[option.rawValue] != nil }

    /// The value of `--name` (the last one given), or its declared default.
    func string(_ option: OptionName) -> String? {
        values[option.rawValue]?.last ?? spec.option(option.rawValue)?.defaultValue
    }

    /// `--name`'s value, else its declared default, as `T` (an option read this way declares a default, and
    /// its values were validated when parsed: a failure here is the declaration's, not the user's).
    func value<T: LosslessStringConvertible>(_ option: OptionName, as _: T.Type = T.self) throws -> T {
        guard let text = string(option), let value = T(text) else {
            throw CLIError.failure("--\(option.rawValue) has no declared default or a value of the wrong kind")
        }
        return value
    }

    /// `--name` as an integer (validated when parsed).
    func int(_ option: OptionName) -> Int? { string(option).flatMap { Int($0) } }

    /// `--name` as a number; nil when absent or one of the option's words.
    func double(_ option: OptionName) -> Double? { string(option).flatMap { Double($0) } }

    /// `--name` as a Float.
    func float(_ option: OptionName) -> Float? { double(option).map { Float($0) } }

    /// Every value of a repeatable `--name`, as given (no comma splitting), in order.
    func all(_ option: OptionName) -> [String] { values[option.rawValue] ?? [] }

    /// Whether the boolean `--name` was given.
    func flag(_ option: OptionName) -> Bool { flags.contains(option.rawValue) }

    /// Every value of a repeatable `--name`, comma lists split, blanks dropped.
    func list(_ option: OptionName) -> [String] {
        let raw = values[option.rawValue] ?? spec.option(option.rawValue)?.defaultValue.map { [$0] } ?? []
        return raw.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter {
            !$0.isEmpty
        }
    }
}
