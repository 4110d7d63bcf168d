/// A vector in a flatbuffer: where its elements start and how many there are.
package struct FlatVector: Sendable {
    package let reader: FlatBufferReader
    /// Position of element 0.
    package let start: Int
    package let count: Int
    let stride: Int

    /// The table at element `i` of a vector of tables.
    package func table(_ i: Int) throws -> FlatTable {
        try reader.table(at: try reader.indirect(start + i * 4))
    }

    /// The string at element `i` of a vector of strings.
    package func string(_ i: Int) throws -> String {
        try reader.string(at: try reader.indirect(start + i * 4))
    }

    /// All elements as integers of type `T`.
    package func integers<T: FixedWidthInteger>(_: T.Type = T.self) throws -> [T] {
        try (0..<count).map { try reader.read(start + $0 * MemoryLayout<T>.size, as: T.self) }
    }

    /// All elements as floats.
    package func floats() throws -> [Float] {
        try (0..<count).map { try reader.readFloat(start + $0 * 4) }
    }

    /// All tables.
    package func tables() throws -> [FlatTable] { try (0..<count).map { try table($0) } }

    /// All strings.
    package func strings() throws -> [String] { try (0..<count).map { try string($0) } }

    /// The raw bytes of a `[ubyte]` vector, as a range of ``FlatBufferReader/bytes``.
    package var byteRange: Range<Int> { (reader.base + start)..<(reader.base + start + count * stride) }
}
