import FileInput

/// Verifies a whole FlatBuffer against a schema before anything else reads it, as FlatBuffers'
/// own verifier does: every table's vtable and fields, every offset, string (NUL-terminated) and
/// vector inside the buffer and aligned, union members of the type their tag names, nesting at most
/// ``maxDepth`` deep and at most ``maxTables`` tables visited (bounded work). Unknown trailing
/// slots (fields newer than the schema) are skipped, as FlatBuffers does.
package struct FlatBufferVerifier {
    /// Deepest nesting of tables accepted.
    package static let maxDepth = 64
    /// Most tables, strings and vectors visited before the buffer is refused as too complex.
    package static let maxObjects = 4_000_000

    let bytes: UnsafeRawBufferPointer
    let tables: [FlatBufferSchema.Table]
    let unions: [[Int]]
    private var objects = 0

    /// Verifies `bytes` (from `base`, `count` bytes) against `tables`/`unions` with `root` as root table.
    package static func verify(
        _ bytes: [UInt8], base: Int = 0, count: Int? = nil, tables: [FlatBufferSchema.Table], unions: [[Int]],
        root: Int,
        what: String = "model"
    ) throws {
        try bytes.withUnsafeBytes { all in
            try verify(all, base: base, count: count, tables: tables, unions: unions, root: root, what: what)
        }
    }

    /// Verifies `bytes` in place (from `base`, `count` bytes) against `tables`/`unions` with `root` as root table.
    package static func verify(
        _ bytes: UnsafeRawBufferPointer, base: Int = 0, count: Int? = nil, tables: [FlatBufferSchema.Table],
        unions: [[Int]],
        root: Int, what: String = "model"
    ) throws {
        let count = count ?? bytes.count - base
        guard base >= 0, count >= 0, count <= bytes.count - base else { throw fail(what, "range outside the file") }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[base..<(base + count)])
        var verifier = FlatBufferVerifier(bytes: slice, tables: tables, unions: unions)
        guard count >= 8, count < Int(Int32.max) else { throw fail(what, "size \(count) bytes") }
        let rootOffset = try verifier.u32(0, what)
        try verifier.table(rootOffset, root, depth: 1, what)
    }

    /// Verifies a `.tflite` model's FlatBuffer.
    package static func verifyModel(_ bytes: [UInt8]) throws {
        try verify(bytes, tables: TFLiteSchema.tables, unions: TFLiteSchema.unions, root: TFLiteSchema.root)
    }

    /// Verifies a `.tflite` model's FlatBuffer in place.
    package static func verifyModel(_ data: FileBytes) throws {
        try verify(data.buffer, tables: TFLiteSchema.tables, unions: TFLiteSchema.unions, root: TFLiteSchema.root)
    }

    static func fail(_ what: String, _ detail: String) -> TFLiteModelError {
        TFLiteModelError(.invalidFlatBuffer, "The \(what) is not a valid FlatBuffer: \(detail).")
    }

    private func check(_ position: Int, _ size: Int, align: Int, _ what: String, _ part: String) throws {
        guard position >= 0, size >= 0, position <= bytes.count - size else {
            throw Self.fail(what, "\(part) at \(position) (\(size) bytes) lies outside its \(bytes.count) bytes")
        }
        guard align <= 1 || position % align == 0 else {
            throw Self.fail(what, "\(part) at \(position) is not aligned to \(align)")
        }
    }

    private func u32(_ position: Int, _ what: String) throws -> Int {
        try check(position, 4, align: 4, what, "offset")
        return Int(bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian)
    }

    private func u16(_ position: Int) -> Int {
        Int(bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self).littleEndian)
    }

    private mutating func count(_ what: String) throws {
        objects += 1
        guard objects <= Self.maxObjects else { throw Self.fail(what, "more than \(Self.maxObjects) objects") }
    }

    /// Follows the uoffset at `position`.
    private func target(_ position: Int, _ what: String) throws -> Int {
        let offset = try u32(position, what)
        let t = position + offset
        guard offset > 0, t < bytes.count else {
            throw Self.fail(what, "offset at \(position) points outside the buffer")
        }
        return t
    }

    private mutating func table(_ position: Int, _ id: Int, depth: Int, _ what: String) throws {
        try count(what)
        guard depth <= Self.maxDepth else { throw Self.fail(what, "tables nested more than \(Self.maxDepth) deep") }
        guard tables.indices.contains(id) else { throw Self.fail(what, "schema table \(id) unknown") }
        let schema = tables[id]
        try check(position, 4, align: 4, what, schema.name)
        let soffset = Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: Int32.self)))
        let vtable = position - soffset
        try check(vtable, 4, align: 2, what, "\(schema.name) vtable")
        let vtableSize = u16(vtable), objectSize = u16(vtable + 2)
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw Self.fail(what, "\(schema.name) vtable size \(vtableSize)")
        }
        try check(vtable, vtableSize, align: 2, what, "\(schema.name) vtable")
        guard objectSize >= 4 else { throw Self.fail(what, "\(schema.name) object size \(objectSize)") }
        try check(position, objectSize, align: 1, what, schema.name)
        let slotCount = (vtableSize - 4) / 2
        var unionType = 0
        for slot in 0..<slotCount {
            let fieldOffset = u16(vtable + 4 + 2 * slot)
            guard slot < schema.slots.count else { break }  // newer fields: skipped
            let kind = schema.slots[slot]
            if fieldOffset == 0 {
                if case .unionType = kind { unionType = 0 }
                continue
            }
            let p = position + fieldOffset
            let part = "\(schema.name) field \(slot)"
            switch kind {
            case .scalar(let size):
                guard fieldOffset + size <= objectSize else { throw Self.fail(what, "\(part) lies outside its table") }
                try check(p, size, align: size, what, part)
            case .unionType:
                guard fieldOffset + 1 <= objectSize else { throw Self.fail(what, "\(part) lies outside its table") }
                unionType = Int(bytes[p])
            case .string, .table, .vector, .union:
                guard fieldOffset + 4 <= objectSize else { throw Self.fail(what, "\(part) lies outside its table") }
                let t = try target(p, what)
                try value(t, kind, unionType: unionType, depth: depth, what, part)
            }
        }
    }

    private mutating func value(
        _ t: Int, _ kind: FlatBufferSchema.Slot, unionType: Int, depth: Int, _ what: String, _ part: String
    ) throws {
        switch kind {
        case .string:
            try count(what)
            let length = try u32(t, what)
            guard length < bytes.count, t + 4 <= bytes.count - length - 1 else {
                throw Self.fail(what, "\(part): string of \(length) bytes outside the buffer")
            }
            guard bytes[t + 4 + length] == 0 else { throw Self.fail(what, "\(part): string not NUL-terminated") }
        case .table(let id):
            try table(t, id, depth: depth + 1, what)
        case .union(let id):
            guard unions.indices.contains(id) else { throw Self.fail(what, "schema union \(id) unknown") }
            guard unionType != 0 else { throw Self.fail(what, "\(part): union value without a type") }
            // A type newer than the schema is skipped, as FlatBuffers' verifier does.
            if unionType < unions[id].count { try table(t, unions[id][unionType], depth: depth + 1, what) }
        case .vector(let element):
            try count(what)
            let n = try u32(t, what)
            let size: Int
            switch element {
            case .scalar(let s): size = s
            default: size = 4
            }
            guard n <= (bytes.count - t - 4) / size else {
                throw Self.fail(what, "\(part): vector of \(n) elements outside the buffer")
            }
            try check(t + 4, n * size, align: min(size, 8) > 4 ? 8 : min(size, 4), what, part)
            switch element {
            case .string, .table:
                for i in 0..<n {
                    let e = try target(t + 4 + 4 * i, what)
                    try value(e, element, unionType: 0, depth: depth, what, "\(part)[\(i)]")
                }
            default:
                break
            }
        case .scalar, .unionType:
            break
        }
    }
}
