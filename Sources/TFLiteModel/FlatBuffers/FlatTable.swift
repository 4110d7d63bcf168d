/// A table in a flatbuffer. Fields are addressed by their slot (declaration order in the schema).
package struct FlatTable: Sendable {
    package let reader: FlatBufferReader
    package let position: Int
    let vtable: Int
    let vtableSize: Int

    /// Position of field `slot`, or nil when the field is absent.
    package func fieldPosition(_ slot: Int) throws -> Int? {
        let entry = 4 + 2 * slot
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(try reader.read(vtable + entry, as: UInt16.self))
        return offset == 0 ? nil : position + offset
    }

    package func has(_ slot: Int) throws -> Bool { try fieldPosition(slot) != nil }

    package func scalar<T: FixedWidthInteger>(_ slot: Int, default value: T) throws -> T {
        guard let p = try fieldPosition(slot) else { return value }
        return try reader.read(p, as: T.self)
    }

    package func float(_ slot: Int, default value: Float) throws -> Float {
        guard let p = try fieldPosition(slot) else { return value }
        return try reader.readFloat(p)
    }

    package func bool(_ slot: Int, default value: Bool = false) throws -> Bool {
        try scalar(slot, default: UInt8(value ? 1 : 0)) != 0
    }

    package func string(_ slot: Int) throws -> String? {
        guard let p = try fieldPosition(slot) else { return nil }
        return try reader.string(at: try reader.indirect(p))
    }

    package func table(_ slot: Int) throws -> FlatTable? {
        guard let p = try fieldPosition(slot) else { return nil }
        return try reader.table(at: try reader.indirect(p))
    }

    /// The vector in field `slot`, whose elements are `elementSize` bytes each.
    package func vector(_ slot: Int, elementSize: Int) throws -> FlatVector? {
        guard let p = try fieldPosition(slot) else { return nil }
        let v = try reader.indirect(p)
        let count = Int(try reader.read(v, as: UInt32.self))
        guard count >= 0, count <= reader.count / max(elementSize, 1) else {
            throw TFLiteModelError(
                .invalidFlatBuffer,
                "The model is not a valid FlatBuffer buffer: vector of \(count) elements at \(v) is larger than the "
                    + "buffer."
            )
        }
        try reader.ensure(v + 4, count * elementSize)
        try reader.spend(count)
        return FlatVector(reader: reader, start: v + 4, count: count, stride: elementSize)
    }

    package func tables(_ slot: Int) throws -> [FlatTable] { try vector(slot, elementSize: 4)?.tables() ?? [] }
    package func strings(_ slot: Int) throws -> [String] { try vector(slot, elementSize: 4)?.strings() ?? [] }
    package func integers<T: FixedWidthInteger>(_ slot: Int, _: T.Type = T.self) throws -> [T] {
        try vector(slot, elementSize: MemoryLayout<T>.size)?.integers(T.self) ?? []
    }
    package func floats(_ slot: Int) throws -> [Float] { try vector(slot, elementSize: 4)?.floats() ?? [] }
    /// The `[ubyte]` vector in field `slot` as a copy.
    package func bytes(_ slot: Int) throws -> [UInt8]? {
        guard let v = try vector(slot, elementSize: 1) else { return nil }
        return Array(reader.bytes[v.byteRange])
    }
}
