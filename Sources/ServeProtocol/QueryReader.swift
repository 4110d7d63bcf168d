import Foundation

/// Typed reads of a request's query arguments, each refusal a message naming the argument and what
/// it takes (the server answers it with 400).
package struct QueryReader: Sendable {
    /// A refused argument.
    package struct Refusal: Error, Equatable, Sendable {
        package let message: String
    }

    package let arguments: [(name: String, value: String)]

    package init(_ arguments: [(name: String, value: String)]) { self.arguments = arguments }

    /// The first value of `name`.
    package func text(_ name: String) -> String? { arguments.first { $0.name == name }?.value }

    /// An integer in `range` (and not 0 when `nonZero`), or nil when absent.
    package func int(_ name: String, _ range: ClosedRange<Int>, nonZero: Bool = false) throws -> Int? {
        guard let t = text(name) else { return nil }
        guard let v = Int(t), range.contains(v), !(nonZero && v == 0) else {
            throw Refusal(
                message:
                    "\(name) takes an integer from \(range.lowerBound) to "
                    + "\(range.upperBound)\(nonZero ? ", not 0" : ""), got '\(t)'."
            )
        }
        return v
    }

    /// A finite number in `range`, or nil when absent.
    package func float(_ name: String, _ range: ClosedRange<Float>) throws -> Float? {
        guard let t = text(name) else { return nil }
        guard let v = Float(t), v.isFinite, range.contains(v) else {
            throw Refusal(
                message: "\(name) takes a number from \(range.lowerBound) to \(range.upperBound), got '\(t)'.")
        }
        return v
    }

    /// The comma-separated values of every `name` argument, trimmed, empty ones left out.
    package func list(_ name: String) -> [String] {
        arguments.filter { $0.name == name }.flatMap { $0.value.split(separator: ",").map(String.init) }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A region `x,y,width,height` (normalized; width and height positive), or nil when absent.
    package func region(_ name: String) throws -> (x: Double, y: Double, width: Double, height: Double)? {
        guard let t = text(name) else { return nil }
        guard let region = Self.region(t) else {
            throw Refusal(message: "\(name) takes x,y,width,height (normalized, e.g. 0.1,0.1,0.5,0.5), got '\(t)'.")
        }
        return region
    }

    /// A region written `x,y,width,height` (finite; width and height positive).
    package static func region(_ text: String) -> (x: Double, y: Double, width: Double, height: Double)? {
        let v = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 4, v.allSatisfy(\.isFinite), v[2] > 0, v[3] > 0 else { return nil }
        return (v[0], v[1], v[2], v[3])
    }

    /// The arguments but `excluded`, in one canonical text (sorted `name=value` pairs).
    package func canonical(excluding excluded: Set<String>) -> String {
        arguments.filter { !excluded.contains($0.name) }.map { "\($0.name)=\($0.value)" }.sorted().joined(
            separator: "&")
    }

    /// Refuses an argument not in `accepted` (a typo is not silently ignored).
    package func checkKnown(_ accepted: Set<String>) throws {
        if let unknown = arguments.first(where: { !accepted.contains($0.name) }) {
            throw Refusal(
                message:
                    "Unknown query argument '\(unknown.name)'; this route takes "
                    + "\(accepted.sorted().joined(separator: ", "))."
            )
        }
    }
}
