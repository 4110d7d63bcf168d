/// A value of a FlexBuffer (the format of TFLite custom-op options): what custom options use —
/// maps, vectors, ints, uints, floats, bools, strings.
package enum FlexValue: Equatable, Sendable {
    case null
    case int(Int64)
    case uint(UInt64)
    case float(Double)
    case bool(Bool)
    case string(String)
    case vector([FlexValue])
    case map([String: FlexValue])

    /// The value as a double when it is numeric or boolean.
    package var doubleValue: Double? {
        switch self {
        case .int(let v): return Double(v)
        case .uint(let v): return Double(v)
        case .float(let v): return v
        case .bool(let v): return v ? 1 : 0
        default: return nil
        }
    }

    /// The value as an integer when it is numeric or boolean.
    package var intValue: Int? {
        switch self {
        case .int(let v): return Int(exactly: v)
        case .uint(let v): return Int(exactly: v)
        case .float(let v): return Int(exactly: v)  // nil for fractions, NaN, ±inf and out of range
        case .bool(let v): return v ? 1 : 0
        default: return nil
        }
    }

    /// The value as a boolean when it is numeric or boolean.
    package var boolValue: Bool? {
        if case .bool(let v) = self { return v }
        return intValue.map { $0 != 0 }
    }
}
