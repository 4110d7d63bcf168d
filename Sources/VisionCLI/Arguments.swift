import Foundation

/// Command-line arguments: `--name value`, `--name=value`, boolean `--flag`, and positionals.
public struct Arguments: Sendable {
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var used: Set<String> = []

    /// Parses `args` (without the program and command names). `booleanFlags` take no value.
    public init(_ args: [String], booleanFlags: Set<String>) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" {
                positionals += args[(i + 1)...]
                break
            }
            if a.hasPrefix("--") {
                var name = String(a.dropFirst(2))
                var value: String?
                if let eq = name.firstIndex(of: "=") {
                    value = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                if booleanFlags.contains(name) {
                    guard value == nil else { throw CLIError.usage("--\(name) takes no value") }
                    flags.insert(name)
                } else {
                    if value == nil {
                        guard i + 1 < args.count else { throw CLIError.usage("--\(name) needs a value") }
                        i += 1
                        value = args[i]
                    }
                    values[name, default: []].append(value ?? "")
                }
            } else {
                positionals.append(a)
            }
            i += 1
        }
    }

    /// The last value of `--name`, without marking it used.
    public func peek(_ name: String) -> String? { values[name]?.last }

    /// The last value of `--name`, if given.
    public mutating func string(_ name: String) -> String? {
        used.insert(name)
        return values[name]?.last
    }

    /// Every value of `--name` (repeatable options), comma lists split.
    public mutating func list(_ name: String) -> [String] {
        used.insert(name)
        return (values[name] ?? []).flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
    }

    /// `--name` as an integer.
    public mutating func int(_ name: String) throws -> Int? {
        guard let s = string(name) else { return nil }
        guard let v = Int(s) else { throw CLIError.usage("--\(name) expects an integer, got '\(s)'") }
        return v
    }

    /// `--name` as a float.
    public mutating func float(_ name: String) throws -> Float? {
        guard let s = string(name) else { return nil }
        guard let v = Float(s), v.isFinite else { throw CLIError.usage("--\(name) expects a number, got '\(s)'") }
        return v
    }

    /// Whether boolean `--name` was given.
    public mutating func flag(_ name: String) -> Bool {
        used.insert(name)
        return flags.contains(name)
    }

    /// Throws for options nobody asked for (typos).
    public func rejectUnknown() throws {
        let unknown = Set(values.keys).union(flags).subtracting(used)
        if let first = unknown.sorted().first { throw CLIError.usage("unknown option --\(first)") }
    }
}
