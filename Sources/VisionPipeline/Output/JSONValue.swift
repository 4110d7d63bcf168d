import Foundation

/// A JSON value with its keys in a fixed order, rendered compactly (the CLI's records).
package enum JSONValue: Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case null

    /// A Float written with the shortest text that reads back as the same Float.
    package static func float(_ v: Float) -> JSONValue { v.isFinite ? .number(Double("\(v)") ?? Double(v)) : .null }

    /// Compact JSON text.
    package var text: String {
        var out = ""
        write(&out)
        return out
    }

    private func write(_ out: inout String) {
        switch self {
        case .object(let fields):
            out += "{"
            for (i, (k, v)) in fields.enumerated() {
                if i > 0 { out += "," }
                Self.escape(k, into: &out)
                out += ":"
                v.write(&out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                v.write(&out)
            }
            out += "]"
        case .string(let s): Self.escape(s, into: &out)
        case .int(let v): out += String(v)
        case .number(let v):
            if !v.isFinite {
                out += "null"
            } else if v == v.rounded(), abs(v) < 1e15 {
                out += String(Int(v))
            } else {
                out += "\(v)"
            }
        case .bool(let v): out += v ? "true" : "false"
        case .null: out += "null"
        }
    }

    /// `s` as a JSON string literal.
    package static func escape(_ s: String) -> String {
        var out = ""
        escape(s, into: &out)
        return out
    }

    private static func escape(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        out += "\""
    }
}
