/// Writes FlatBuffers. Objects are built children first; each call returns the object's offset
/// (its distance from the end of the finished buffer), which parents refer to.
package struct FlatBufferBuilder {
    /// The buffer so far, stored back to front.
    private var reversed: [UInt8] = []
    private var minAlign = 1
    private var fields: [Int: Int] = [:]
    private var tableStart = 0
    private var inTable = false

    /// An object already written, referred to by its distance from the buffer's end.
    package struct Offset: Hashable, Sendable { package let value: Int }

    package init() {}

    var size: Int { reversed.count }

    private mutating func pad(_ n: Int) { if n > 0 { reversed.append(contentsOf: repeatElement(0, count: n)) } }

    /// Aligns so that after `additional` more bytes, a `size`-byte value is aligned.
    private mutating func prep(_ alignment: Int, _ additional: Int) {
        minAlign = max(minAlign, alignment)
        let padding = (alignment - ((size + additional) % alignment)) % alignment
        pad(padding)
    }

    private mutating func putRaw<T: FixedWidthInteger>(_ v: T) {
        let n = MemoryLayout<T>.size
        for i in stride(from: n - 1, through: 0, by: -1) { reversed.append(UInt8(truncatingIfNeeded: v >> (8 * i))) }
    }

    private mutating func put<T: FixedWidthInteger>(_ v: T) {
        prep(MemoryLayout<T>.size, 0)
        putRaw(v)
    }

    /// Writes a string.
    package mutating func string(_ s: String) -> Offset {
        let utf8 = Array(s.utf8)
        prep(4, utf8.count + 1)
        reversed.append(0)
        reversed.append(contentsOf: utf8.reversed())
        putRaw(UInt32(utf8.count))
        return Offset(value: size)
    }

    /// Writes a vector of integers.
    package mutating func vector<T: FixedWidthInteger>(_ values: [T], alignment: Int? = nil) -> Offset {
        let n = MemoryLayout<T>.size
        prep(4, values.count * n)
        prep(max(alignment ?? n, n), values.count * n)
        for v in values.reversed() { putRaw(v) }
        putRaw(UInt32(values.count))
        return Offset(value: size)
    }

    /// Writes a vector of floats.
    package mutating func vector(_ values: [Float]) -> Offset {
        vector(values.map(\.bitPattern))
    }

    /// Writes a vector of bytes aligned to `alignment` (16 for model buffers).
    package mutating func bytes(_ values: [UInt8], alignment: Int = 1) -> Offset {
        prep(4, values.count)
        prep(alignment, values.count)
        reversed.append(contentsOf: values.reversed())
        putRaw(UInt32(values.count))
        return Offset(value: size)
    }

    /// Writes a vector of offsets (tables or strings).
    package mutating func vector(_ offsets: [Offset]) -> Offset {
        prep(4, offsets.count * 4)
        for o in offsets.reversed() {
            prep(4, 0)
            putRaw(UInt32(size + 4 - o.value))
        }
        putRaw(UInt32(offsets.count))
        return Offset(value: size)
    }

    /// Starts a table; add its fields, then call ``endTable()``.
    package mutating func startTable() {
        precondition(!inTable, "FlatBufferBuilder: tables cannot nest; build children first")
        inTable = true
        fields = [:]
        tableStart = size
    }

    /// Adds a scalar field at `slot`.
    package mutating func add<T: FixedWidthInteger>(_ slot: Int, _ value: T) {
        put(value)
        fields[slot] = size
    }

    /// Adds a float field at `slot`.
    package mutating func add(_ slot: Int, _ value: Float) { add(slot, value.bitPattern) }

    /// Adds a bool field at `slot`.
    package mutating func add(_ slot: Int, _ value: Bool) { add(slot, UInt8(value ? 1 : 0)) }

    /// Adds a reference field at `slot`.
    package mutating func add(_ slot: Int, _ offset: Offset) {
        prep(4, 0)
        putRaw(UInt32(size + 4 - offset.value))
        fields[slot] = size
    }

    /// Finishes the table and returns it.
    package mutating func endTable() -> Offset {
        precondition(inTable, "FlatBufferBuilder: endTable without startTable")
        prep(4, 0)
        putRaw(Int32(0))
        let object = size
        let slots = (fields.keys.max() ?? -1) + 1
        let tableSize = object - tableStart
        for slot in stride(from: slots - 1, through: 0, by: -1) {
            putRaw(UInt16(fields[slot].map { object - $0 } ?? 0))
        }
        putRaw(UInt16(tableSize))
        putRaw(UInt16(4 + 2 * slots))
        let vtable = size
        let soffset = Int32(vtable - object)
        for j in 0..<4 { reversed[object - 1 - j] = UInt8(truncatingIfNeeded: soffset >> (8 * Int32(j))) }
        inTable = false
        return Offset(value: object)
    }

    /// Finishes the buffer with `root` and an optional 4-character file identifier.
    package mutating func finish(_ root: Offset, fileIdentifier: String? = nil) -> [UInt8] {
        let id = fileIdentifier.map { Array($0.utf8) } ?? []
        precondition(id.isEmpty || id.count == 4, "FlatBuffer file identifiers have 4 characters")
        prep(max(minAlign, 4), 4 + id.count)
        reversed.append(contentsOf: id.reversed())
        prep(4, 0)
        putRaw(UInt32(size + 4 - root.value))
        return reversed.reversed()
    }
}
