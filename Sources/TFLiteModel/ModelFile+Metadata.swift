extension ModelFile {
    /// Where the model's own flatbuffer ends: the start of the appended zip, or the file's end.
    public func flatBufferEnd() throws -> Int {
        guard let archive = try associatedFiles(), let first = archive.entries.map(\.localHeaderOffset).min() else { return bytes.count }
        return first
    }

    /// The model with `metadata` as its `TFLITE_METADATA` (replacing any) and `files` as its
    /// appended zip (replacing any), everything else byte for byte as it was.
    ///
    /// The original flatbuffer is kept intact and shifted behind a small new head: a new root
    /// `Model` table whose fields point forward into the old data (FlatBuffers offsets are
    /// relative, so they stay valid), a buffer list with one more entry holding the metadata, and
    /// a metadata list with the new entry. Models whose buffers use absolute file offsets
    /// (over 2 GB) are refused.
    public func replacingMetadata(_ metadata: ModelMetadata, files: [(name: String, contents: [UInt8])], deflate: Bool = false) throws -> [UInt8] {
        let end = try flatBufferEnd()
        let old = Array(bytes[0..<end])
        let reader = try FlatBufferReader(bytes: old)
        let root = try reader.root()
        // Absolute buffer offsets would break when the data moves.
        if let buffers = try root.vector(4, elementSize: 4) {
            for i in 0..<buffers.count where try buffers.table(i).scalar(1, default: UInt64(0)) > 1 {
                throw TFLiteModelError(.invalidBuilderInput, "This model keeps buffers at absolute file offsets (a >2 GB model); adding metadata to it is not supported.")
            }
        }
        func target(_ slot: Int) throws -> Int? {
            guard let p = try root.fieldPosition(slot) else { return nil }
            return try reader.indirect(p)
        }
        let oldBuffers = try root.vector(4, elementSize: 4)
        let oldBufferTables = try (0..<(oldBuffers?.count ?? 0)).map { try reader.indirect(oldBuffers!.start + $0 * 4) }
        let oldMetadata = try root.vector(6, elementSize: 4)
        var keptMetadata: [Int] = []
        for i in 0..<(oldMetadata?.count ?? 0) {
            let p = try reader.indirect(oldMetadata!.start + i * 4)
            if try reader.table(at: p).string(0) != ModelMetadata.entryName { keptMetadata.append(p) }
        }
        let payload = metadata.flatBuffer()
        let name = Array(ModelMetadata.entryName.utf8)

        // Lay out the new head: positions first, then bytes.
        var head = [UInt8]()
        func align(_ n: Int) { while head.count % n != 0 { head.append(0) } }
        func u16(_ v: Int) { head += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)] }
        func u32(_ v: Int) { head += (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
        func patch32(_ at: Int, _ v: Int) { for i in 0..<4 { head[at + i] = UInt8((v >> (8 * i)) & 0xff) } }

        // [0] root offset, [4] identifier.
        u32(0)
        head += Array(ModelFile.fileIdentifier.utf8)
        // Model vtable: 8 slots.
        let slots = [0, 1, 2, 3, 4, 5, 6, 7]
        let vtable = head.count
        u16(4 + 2 * slots.count)
        u16(4 + 4 * slots.count)
        for s in slots { u16(4 + 4 * s) }
        align(4)
        let table = head.count
        patch32(0, table)
        u32(table - vtable)  // soffset: vtable precedes the table
        let fieldStart = head.count
        for _ in slots { u32(0) }  // version + 7 references, patched below
        // Slot 0: version (scalar copy).
        patch32(fieldStart, Int(try root.scalar(0, default: UInt32(3))))
        // New buffers vector and metadata vector.
        align(4)
        let buffersVector = head.count
        u32(oldBufferTables.count + 1)
        let buffersEntries = head.count
        for _ in 0...oldBufferTables.count { u32(0) }
        let metadataVector = head.count
        u32(keptMetadata.count + 1)
        let metadataEntries = head.count
        for _ in 0...keptMetadata.count { u32(0) }
        // New Metadata table {name, buffer}.
        let mdVtable = head.count
        u16(8); u16(12); u16(4); u16(8)
        let mdTable = head.count
        u32(mdTable - mdVtable)
        let mdNameField = head.count
        u32(0)
        u32(oldBufferTables.count)  // the new buffer's index
        let mdName = head.count
        u32(name.count); head += name; head.append(0)
        align(4)
        // New Buffer table {data}.
        let bufVtable = head.count
        u16(6); u16(8); u16(4)
        align(4)
        let bufTable = head.count
        u32(bufTable - bufVtable)
        let bufDataField = head.count
        u32(0)
        // Data vector: contents 16-byte aligned.
        while (head.count + 4) % 16 != 0 { head.append(0) }
        let data = head.count
        u32(payload.count); head += payload
        align(16)
        let shift = head.count  // the old flatbuffer starts here (16-aligned)

        // Patch references (uoffset = target − field position).
        func ref(_ field: Int, _ targetInHead: Int) { patch32(field, targetInHead - field) }
        func refOld(_ field: Int, _ oldPosition: Int) { patch32(field, shift + oldPosition - field) }
        for (i, slot) in slots.enumerated() where slot != 0 {
            let field = fieldStart + 4 * i
            switch slot {
            case 4: ref(field, buffersVector)
            case 6: ref(field, metadataVector)
            default: if let t = try target(slot) { refOld(field, t) }
            }
        }
        for (i, t) in oldBufferTables.enumerated() { refOld(buffersEntries + 4 * i, t) }
        ref(buffersEntries + 4 * oldBufferTables.count, bufTable)
        for (i, t) in keptMetadata.enumerated() { refOld(metadataEntries + 4 * i, t) }
        ref(metadataEntries + 4 * keptMetadata.count, mdTable)
        ref(mdNameField, mdName)
        ref(bufDataField, data)
        // Absent optional fields must read as absent: zero their vtable entries.
        for (i, slot) in slots.enumerated() where slot != 0 && slot != 4 && slot != 6 {
            if try target(slot) == nil {
                let entry = vtable + 4 + 2 * i
                head[entry] = 0; head[entry + 1] = 0
            }
        }
        var out = head + old
        if !files.isEmpty { out += try ZipArchive.write(files, deflate: deflate) }
        return out
    }
}
