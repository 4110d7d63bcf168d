/// A bounds-checked, read-only view of a FlatBuffer. Every read checks its range and throws
/// ``TFLiteModelError`` on malformed input; nothing traps.
public struct FlatBufferReader: Sendable {
    /// The whole buffer.
    public let bytes: [UInt8]
    /// Where this buffer starts inside `bytes` (nested flatbuffers share the storage).
    public let base: Int
    /// Length of the buffer.
    public let count: Int

    /// Wraps `bytes[base ..< base+count]`.
    public init(bytes: [UInt8], base: Int = 0, count: Int? = nil) throws {
        let count = count ?? (bytes.count - base)
        guard base >= 0, count >= 0, base + count <= bytes.count else {
            throw TFLiteModelError(.truncated, "FlatBuffer range \(base)+\(count) exceeds \(bytes.count) bytes.")
        }
        self.bytes = bytes
        self.base = base
        self.count = count
    }

    @inline(__always)
    func ensure(_ offset: Int, _ size: Int) throws {
        guard offset >= 0, size >= 0, offset <= count - size else {
            throw TFLiteModelError(.invalidFlatBuffer, "The model is not a valid FlatBuffer buffer: read of \(size) bytes at offset \(offset) is outside its \(count) bytes.")
        }
    }

    /// Reads a little-endian integer at `offset` (relative to ``base``).
    @inline(__always)
    public func read<T: FixedWidthInteger>(_ offset: Int, as: T.Type = T.self) throws -> T {
        let size = MemoryLayout<T>.size
        try ensure(offset, size)
        var value: T = 0
        let start = base + offset
        for i in 0..<size { value |= T(truncatingIfNeeded: bytes[start + i]) << (8 * i) }
        return value
    }

    public func readFloat(_ offset: Int) throws -> Float { Float(bitPattern: try read(offset, as: UInt32.self)) }
    public func readDouble(_ offset: Int) throws -> Double { Double(bitPattern: try read(offset, as: UInt64.self)) }

    /// The 4-character file identifier (bytes 4..<8), or nil when the buffer is too short.
    public var fileIdentifier: String? {
        guard count >= 8 else { return nil }
        return String(decoding: bytes[(base + 4)..<(base + 8)], as: UTF8.self)
    }

    /// The root table.
    public func root() throws -> FlatTable {
        let offset = Int(try read(0, as: UInt32.self))
        return try table(at: offset)
    }

    /// The table at absolute (buffer-relative) `position`.
    public func table(at position: Int) throws -> FlatTable {
        let soffset = Int(try read(position, as: Int32.self))
        let vtable = position - soffset
        let vtableSize = Int(try read(vtable, as: UInt16.self))
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw TFLiteModelError(.invalidFlatBuffer, "The model is not a valid FlatBuffer buffer: bad vtable size \(vtableSize) at \(vtable).")
        }
        try ensure(vtable, vtableSize)
        let tableSize = Int(try read(vtable + 2, as: UInt16.self))
        try ensure(position, max(tableSize, 4))
        return FlatTable(reader: self, position: position, vtable: vtable, vtableSize: vtableSize)
    }

    /// Follows the uoffset stored at `position`.
    func indirect(_ position: Int) throws -> Int {
        let target = position + Int(try read(position, as: UInt32.self))
        try ensure(target, 0)
        return target
    }

    /// A string at absolute `position` (its length prefix).
    func string(at position: Int) throws -> String {
        let length = Int(try read(position, as: UInt32.self))
        try ensure(position + 4, length)
        return String(decoding: bytes[(base + position + 4)..<(base + position + 4 + length)], as: UTF8.self)
    }
}

/// A vector in a flatbuffer: where its elements start and how many there are.
public struct FlatVector: Sendable {
    public let reader: FlatBufferReader
    /// Position of element 0.
    public let start: Int
    public let count: Int
    let stride: Int

    /// The table at element `i` of a vector of tables.
    public func table(_ i: Int) throws -> FlatTable {
        try reader.table(at: try reader.indirect(start + i * 4))
    }

    /// The string at element `i` of a vector of strings.
    public func string(_ i: Int) throws -> String {
        try reader.string(at: try reader.indirect(start + i * 4))
    }

    /// All elements as integers of type `T`.
    public func integers<T: FixedWidthInteger>(_: T.Type = T.self) throws -> [T] {
        try (0..<count).map { try reader.read(start + $0 * MemoryLayout<T>.size, as: T.self) }
    }

    /// All elements as floats.
    public func floats() throws -> [Float] {
        try (0..<count).map { try reader.readFloat(start + $0 * 4) }
    }

    /// All tables.
    public func tables() throws -> [FlatTable] { try (0..<count).map { try table($0) } }

    /// All strings.
    public func strings() throws -> [String] { try (0..<count).map { try string($0) } }

    /// The raw bytes of a `[ubyte]` vector, as a range of ``FlatBufferReader/bytes``.
    public var byteRange: Range<Int> { (reader.base + start)..<(reader.base + start + count * stride) }
}

/// A table in a flatbuffer. Fields are addressed by their slot (declaration order in the schema).
public struct FlatTable: Sendable {
    public let reader: FlatBufferReader
    public let position: Int
    let vtable: Int
    let vtableSize: Int

    /// Position of field `slot`, or nil when the field is absent.
    public func fieldPosition(_ slot: Int) throws -> Int? {
        let entry = 4 + 2 * slot
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(try reader.read(vtable + entry, as: UInt16.self))
        return offset == 0 ? nil : position + offset
    }

    public func has(_ slot: Int) throws -> Bool { try fieldPosition(slot) != nil }

    public func scalar<T: FixedWidthInteger>(_ slot: Int, default value: T) throws -> T {
        guard let p = try fieldPosition(slot) else { return value }
        return try reader.read(p, as: T.self)
    }

    public func float(_ slot: Int, default value: Float) throws -> Float {
        guard let p = try fieldPosition(slot) else { return value }
        return try reader.readFloat(p)
    }

    public func bool(_ slot: Int, default value: Bool = false) throws -> Bool {
        try scalar(slot, default: UInt8(value ? 1 : 0)) != 0
    }

    public func string(_ slot: Int) throws -> String? {
        guard let p = try fieldPosition(slot) else { return nil }
        return try reader.string(at: try reader.indirect(p))
    }

    public func table(_ slot: Int) throws -> FlatTable? {
        guard let p = try fieldPosition(slot) else { return nil }
        return try reader.table(at: try reader.indirect(p))
    }

    /// The vector in field `slot`, whose elements are `elementSize` bytes each.
    public func vector(_ slot: Int, elementSize: Int) throws -> FlatVector? {
        guard let p = try fieldPosition(slot) else { return nil }
        let v = try reader.indirect(p)
        let count = Int(try reader.read(v, as: UInt32.self))
        guard count >= 0, count <= reader.count / max(elementSize, 1) else {
            throw TFLiteModelError(.invalidFlatBuffer, "The model is not a valid FlatBuffer buffer: vector of \(count) elements at \(v) is larger than the buffer.")
        }
        try reader.ensure(v + 4, count * elementSize)
        return FlatVector(reader: reader, start: v + 4, count: count, stride: elementSize)
    }

    public func tables(_ slot: Int) throws -> [FlatTable] { try vector(slot, elementSize: 4)?.tables() ?? [] }
    public func strings(_ slot: Int) throws -> [String] { try vector(slot, elementSize: 4)?.strings() ?? [] }
    public func integers<T: FixedWidthInteger>(_ slot: Int, _: T.Type = T.self) throws -> [T] {
        try vector(slot, elementSize: MemoryLayout<T>.size)?.integers(T.self) ?? []
    }
    public func floats(_ slot: Int) throws -> [Float] { try vector(slot, elementSize: 4)?.floats() ?? [] }
    /// The `[ubyte]` vector in field `slot` as a copy.
    public func bytes(_ slot: Int) throws -> [UInt8]? {
        guard let v = try vector(slot, elementSize: 1) else { return nil }
        return Array(reader.bytes[v.byteRange])
    }
}
