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
