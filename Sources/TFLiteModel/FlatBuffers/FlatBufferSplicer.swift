/// Builds a new FlatBuffer that reuses an existing one unchanged: a small head of new objects is
/// written in front of the old bytes, and new objects may refer to old ones by their position in
/// the old buffer. FlatBuffers offsets are relative and point forward, so the old data stays valid
/// when shifted behind the head, and every new object refers only to later new objects or to the
/// old data. Objects are laid out in the order they are added; add parents before children.
struct FlatBufferSplicer {
    /// A reference from a new object: to an old object (its position in the old buffer) or to a
    /// new one (its id from an `add` call).
    enum Ref { case old(Int), new(Int) }

    enum Field {
        case u8(UInt8), i8(Int8), u16(UInt16), u32(UInt32), i32(Int32)
        /// 8 bytes, 8-aligned in the file (the table is placed so).
        case u64(UInt64)
        case ref(Ref)
    }

    enum Object {
        case table([(slot: Int, field: Field)])
        case refs([Ref])
        case int32s([Int32])
        case string(String)
        case bytes([UInt8])
    }

    fileprivate(set) var objects: [Object] = []

    /// Adds an object; returns its id.
    mutating func add(_ object: Object) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    /// The spliced buffer: root = new object `root`, then `old` (which must start 16-aligned
    /// relative to its own start), with `fileIdentifier`.
    func build<Old: Collection>(root: Int, old: Old, fileIdentifier: String) -> [UInt8] where Old.Element == UInt8 {
        var out = head(root: root, fileIdentifier: fileIdentifier)
        out.append(contentsOf: old)
        return out
    }

    /// The spliced buffer's new head alone, a multiple of 64 bytes long: the buffer is the head
    /// followed by the old one.
    func head(root: Int, fileIdentifier: String) -> [UInt8] {
        var out = [UInt8]()
        var positions = [Int](repeating: 0, count: objects.count)
        var patches: [(at: Int, ref: Ref)] = []
        func align(_ n: Int) { while out.count % n != 0 { out.append(0) } }
        func put16(_ v: Int) { out += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)] }
        func put32(_ v: Int) { out += (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
        put32(0)
        out += Array(fileIdentifier.utf8)
        for (id, object) in objects.enumerated() {
            switch object {
            case .table(let fields):
                let slots = (fields.map(\.slot).max() ?? -1) + 1
                // Field layout: 4-byte soffset, then each field at its natural alignment.
                var offsets: [Int: Int] = [:]
                var size = 4
                for (slot, field) in fields {
                    let width: Int
                    switch field {
                    case .u8, .i8: width = 1
                    case .u16: width = 2
                    case .u64: width = 8
                    default: width = 4
                    }
                    size = (size + width - 1) / width * width
                    offsets[slot] = size
                    size += width
                }
                let wide = fields.contains { if case .u64 = $0.field { return true } else { return false } }
                size = (size + 3) / 4 * 4
                align(2)
                let vtable = out.count
                put16(4 + 2 * slots)
                put16(size)
                for s in 0..<slots { put16(offsets[s] ?? 0) }
                align(wide ? 8 : 4)
                let table = out.count
                positions[id] = table
                put32(table - vtable)
                out += [UInt8](repeating: 0, count: size - 4)
                for (slot, field) in fields {
                    let p = table + (offsets[slot] ?? 0)
                    func write(_ v: Int, _ n: Int) { for i in 0..<n { out[p + i] = UInt8((v >> (8 * i)) & 0xff) } }
                    switch field {
                    case .u8(let v): write(Int(v), 1)
                    case .i8(let v): write(Int(UInt8(bitPattern: v)), 1)
                    case .u16(let v): write(Int(v), 2)
                    case .u32(let v): write(Int(v), 4)
                    case .i32(let v): write(Int(UInt32(bitPattern: v)), 4)
                    case .u64(let v): for i in 0..<8 { out[p + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(i))) }
                    case .ref(let r): patches.append((p, r))
                    }
                }
            case .refs(let refs):
                align(4)
                positions[id] = out.count
                put32(refs.count)
                for r in refs { patches.append((out.count, r)); put32(0) }
            case .int32s(let values):
                align(4)
                positions[id] = out.count
                put32(values.count)
                for v in values { put32(Int(UInt32(bitPattern: v))) }
            case .string(let s):
                align(4)
                positions[id] = out.count
                let utf8 = Array(s.utf8)
                put32(utf8.count)
                out += utf8
                out.append(0)
            case .bytes(let data):
                while (out.count + 4) % 16 != 0 { out.append(0) }
                positions[id] = out.count
                put32(data.count)
                out += data
            }
        }
        align(64)
        let shift = out.count
        for (at, ref) in patches {
            let target: Int
            switch ref {
            case .old(let p): target = shift + p
            case .new(let id): target = positions[id]
            }
            precondition(target > at, "FlatBufferSplicer: a reference must point forward; add parents before children")
            let v = target - at
            for i in 0..<4 { out[at + i] = UInt8((v >> (8 * i)) & 0xff) }
        }
        let rootOffset = positions[root]
        for i in 0..<4 { out[i] = UInt8((rootOffset >> (8 * i)) & 0xff) }
        return out
    }
}

extension FlatBufferSplicer {
    /// Replaces object `id` (added earlier as a placeholder, so that it keeps its place in the layout).
    mutating func replace(_ id: Int, with object: Object) {
        objects[id] = object
    }
}
