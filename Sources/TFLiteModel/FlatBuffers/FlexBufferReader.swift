/// Parses FlexBuffers with every read bounds-checked (malformed bytes throw, never trap).
package enum FlexBufferReader {
    /// Parses the root value of `bytes`.
    package static func parse(_ bytes: [UInt8]) throws -> FlexValue {
        guard bytes.count >= 3 else { throw error("buffer of \(bytes.count) bytes is too short") }
        let rootWidth = Int(bytes[bytes.count - 1])
        let packed = bytes[bytes.count - 2]
        guard [1, 2, 4, 8].contains(rootWidth) else { throw error("bad root width \(rootWidth)") }
        let rootPos = bytes.count - 2 - rootWidth
        guard rootPos >= 0 else { throw error("root outside the buffer") }
        var depth = 0, visited = 0
        return try value(bytes, at: rootPos, parentWidth: rootWidth, packed: packed, depth: &depth, visited: &visited)
    }

    /// Most values one parse visits.
    package static let maxValues = 1_000_000

    static func error(_ what: String) -> TFLiteModelError {
        TFLiteModelError(.invalidCustomOptions, "Invalid FlexBuffer custom options: \(what).")
    }

    static func readUInt(_ b: [UInt8], _ pos: Int, _ width: Int) throws -> UInt64 {
        guard pos >= 0, width > 0, pos + width <= b.count else {
            throw error("read of \(width) bytes at \(pos) outside \(b.count) bytes")
        }
        var v: UInt64 = 0
        for i in 0..<width { v |= UInt64(b[pos + i]) << (8 * UInt64(i)) }
        return v
    }

    static func readInt(_ b: [UInt8], _ pos: Int, _ width: Int) throws -> Int64 {
        let u = try readUInt(b, pos, width)
        let shift = UInt64(64 - 8 * width)
        return Int64(bitPattern: u << shift) >> Int64(shift)
    }

    static func readFloat(_ b: [UInt8], _ pos: Int, _ width: Int) throws -> Double {
        switch width {
        case 4: return Double(Float(bitPattern: UInt32(try readUInt(b, pos, 4))))
        case 8: return Double(bitPattern: try readUInt(b, pos, 8))
        default: throw error("float of width \(width)")
        }
    }

    /// A length or count read from the buffer: at most the buffer's size (a larger one cannot be valid).
    static func length(_ b: [UInt8], _ pos: Int, _ width: Int) throws -> Int {
        let v = try readUInt(b, pos, width)
        guard v <= UInt64(b.count) else { throw error("length \(v) at \(pos) exceeds the buffer") }
        return Int(v)
    }

    static func indirect(_ b: [UInt8], _ pos: Int, _ width: Int) throws -> Int {
        let off = try readUInt(b, pos, width)
        guard off <= UInt64(pos) else { throw error("offset \(off) at \(pos) points before the buffer") }
        return pos - Int(off)
    }

    static func value(
        _ b: [UInt8], at pos: Int, parentWidth: Int, packed: UInt8, depth: inout Int, visited: inout Int
    ) throws -> FlexValue {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { throw error("nesting too deep") }
        // Bounded work: shared children could otherwise make a small buffer expand without end.
        visited += 1
        guard visited <= maxValues else { throw error("more than \(maxValues) values") }
        let type = Int(packed >> 2)
        let childWidth = 1 << Int(packed & 3)
        switch type {
        case 0: return .null
        case 1: return .int(try readInt(b, pos, parentWidth))
        case 2: return .uint(try readUInt(b, pos, parentWidth))
        case 3: return .float(try readFloat(b, pos, parentWidth))
        case 26: return .bool(try readUInt(b, pos, parentWidth) != 0)
        case 6: return .int(try readInt(b, try indirect(b, pos, parentWidth), childWidth))
        case 7: return .uint(try readUInt(b, try indirect(b, pos, parentWidth), childWidth))
        case 8: return .float(try readFloat(b, try indirect(b, pos, parentWidth), childWidth))
        case 4:  // key: NUL-terminated
            return .string(try cString(b, try indirect(b, pos, parentWidth)))
        case 5:  // string: length-prefixed
            let s = try indirect(b, pos, parentWidth)
            let len = try length(b, s - childWidth, childWidth)
            guard len <= b.count - s else { throw error("string outside the buffer") }
            return .string(String(decoding: b[s..<(s + len)], as: UTF8.self))
        case 9:  // map
            let m = try indirect(b, pos, parentWidth)
            let len = try length(b, m - childWidth, childWidth)
            let keysPos = try indirect(b, m - 3 * childWidth, childWidth)
            let keysWidth = try length(b, m - 2 * childWidth, childWidth)
            guard [1, 2, 4, 8].contains(keysWidth), len >= 0, len < b.count else { throw error("bad map header") }
            var result: [String: FlexValue] = [:]
            for i in 0..<len {
                let key = try cString(b, try indirect(b, keysPos + i * keysWidth, keysWidth))
                let typePos = m + len * childWidth + i
                guard typePos < b.count else { throw error("map types outside the buffer") }
                result[key] = try value(
                    b, at: m + i * childWidth, parentWidth: childWidth, packed: b[typePos], depth: &depth,
                    visited: &visited)
            }
            return .map(result)
        case 10:  // untyped vector
            let v = try indirect(b, pos, parentWidth)
            let len = try length(b, v - childWidth, childWidth)
            return .vector(
                try (0..<len).map { i in
                    let typePos = v + len * childWidth + i
                    guard typePos < b.count else { throw error("vector types outside the buffer") }
                    return try value(
                        b, at: v + i * childWidth, parentWidth: childWidth, packed: b[typePos], depth: &depth,
                        visited: &visited)
                })
        case 11, 12, 13, 36:  // typed vectors of int, uint, float, bool
            let v = try indirect(b, pos, parentWidth)
            let len = try length(b, v - childWidth, childWidth)
            return .vector(
                try (0..<len).map { i in
                    let p = v + i * childWidth
                    switch type {
                    case 11: return .int(try readInt(b, p, childWidth))
                    case 12: return .uint(try readUInt(b, p, childWidth))
                    case 13: return .float(try readFloat(b, p, childWidth))
                    default: return .bool(try readUInt(b, p, childWidth) != 0)
                    }
                })
        default:
            throw error("unsupported value type \(type)")
        }
    }

    static func cString(_ b: [UInt8], _ pos: Int) throws -> String {
        guard pos >= 0, pos < b.count else { throw error("key outside the buffer") }
        var end = pos
        while end < b.count && b[end] != 0 { end += 1 }
        guard end < b.count else { throw error("unterminated key") }
        return String(decoding: b[pos..<end], as: UTF8.self)
    }
}
