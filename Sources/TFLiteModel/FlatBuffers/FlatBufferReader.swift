import FileInput
import Synchronization

/// A bounds-checked, read-only view of a FlatBuffer. Every read checks its range and throws
/// ``TFLiteModelError`` on malformed input; nothing traps.
package struct FlatBufferReader: Sendable {
    /// Work left for one parse, shared by the copies of a reader: tables visited and vector
    /// elements read. Shared sub-objects could otherwise make a small buffer cost unbounded work.
    final class Budget: Sendable {
        let remaining: Atomic<Int>
        init(_ units: Int) { remaining = Atomic(units) }
    }

    /// Work units one reader may spend (tables and vector elements).
    package static let workLimit = 64_000_000

    let budget = Budget(FlatBufferReader.workLimit)

    /// Spends `units` of the budget; throws when it is exhausted.
    func spend(_ units: Int) throws {
        guard budget.remaining.subtract(max(units, 1), ordering: .relaxed).newValue >= 0 else {
            throw TFLiteModelError(
                .invalidFlatBuffer,
                "The FlatBuffer is too complex to read (more than \(Self.workLimit) objects and elements).")
        }
    }

    /// The whole buffer.
    package let bytes: FileBytes
    /// Where this buffer starts inside `bytes` (nested flatbuffers share the storage).
    package let base: Int
    /// Length of the buffer.
    package let count: Int

    /// Wraps a copy of `bytes[base ..< base+count]`.
    package init(bytes: [UInt8], base: Int = 0, count: Int? = nil) throws {
        try self.init(data: FileBytes(copying: bytes), base: base, count: count)
    }

    /// Wraps `data[base ..< base+count]` (no copy: a model file's mapping is read in place).
    package init(data bytes: FileBytes, base: Int = 0, count: Int? = nil) throws {
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
            throw TFLiteModelError(
                .invalidFlatBuffer,
                "The model is not a valid FlatBuffer buffer: read of \(size) bytes at offset \(offset) is outside its "
                    + "\(count) bytes."
            )
        }
    }

    /// Reads a little-endian integer at `offset` (relative to ``base``).
    @inline(__always)
    package func read<T: FixedWidthInteger>(_ offset: Int, as: T.Type = T.self) throws -> T {
        let size = MemoryLayout<T>.size
        try ensure(offset, size)
        return T(littleEndian: bytes.buffer.loadUnaligned(fromByteOffset: base + offset, as: T.self))
    }

    package func readFloat(_ offset: Int) throws -> Float { Float(bitPattern: try read(offset, as: UInt32.self)) }
    package func readDouble(_ offset: Int) throws -> Double { Double(bitPattern: try read(offset, as: UInt64.self)) }

    /// The 4-character file identifier (bytes 4..<8), or nil when the buffer is too short.
    package var fileIdentifier: String? {
        guard count >= 8 else { return nil }
        return String(decoding: bytes[(base + 4)..<(base + 8)], as: UTF8.self)
    }

    /// The root table.
    package func root() throws -> FlatTable {
        let offset = Int(try read(0, as: UInt32.self))
        return try table(at: offset)
    }

    /// The root table of a buffer whose file identifier must be `identifier` (else the metadata
    /// error naming `schema`: "Invalid <schema> schema version: expected …, got …").
    package func root(identifier: String, schema: String) throws -> FlatTable {
        let id = fileIdentifier ?? ""
        guard id == identifier else {
            throw TFLiteModelError(
                .invalidMetadataIdentifier, "Invalid \(schema) schema version: expected \(identifier), got \(id)")
        }
        return try root()
    }

    /// The table at absolute (buffer-relative) `position`.
    package func table(at position: Int) throws -> FlatTable {
        try spend(1)
        let soffset = Int(try read(position, as: Int32.self))
        let vtable = position - soffset
        let vtableSize = Int(try read(vtable, as: UInt16.self))
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw TFLiteModelError(
                .invalidFlatBuffer,
                "The model is not a valid FlatBuffer buffer: bad vtable size \(vtableSize) at \(vtable).")
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
