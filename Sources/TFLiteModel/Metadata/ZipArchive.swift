import CZlib
import FileInput

/// The zip archive appended to a `.tflite` model, which carries its associated files (labels,
/// score calibration…). Stored and deflated entries are supported; offsets are accepted either
/// relative to the archive or to the whole file, as the metadata writers produce both.
package struct ZipArchive: Sendable {
    /// One file of the archive.
    package struct Entry: Equatable, Sendable {
        package var name: String
        /// 0 = stored, 8 = deflated.
        package var method: UInt16
        package var crc32: UInt32
        package var compressedSize: Int
        package var uncompressedSize: Int
        /// Absolute position of the entry's local header in the bytes given to ``init(bytes:)``.
        package var localHeaderOffset: Int
    }

    let bytes: FileBytes
    /// The entries in central-directory order.
    package let entries: [Entry]

    /// Reads the archive at the end of `bytes`. Returns nil when `bytes` carries no zip
    /// (no end-of-central-directory record), as MediaPipe treats that as "no associated files".
    /// Throws ``TFLiteModelError`` when a zip is there but malformed.
    package init?(bytes: [UInt8]) throws {
        try self.init(data: FileBytes(copying: bytes))
    }

    /// Reads the archive at the end of `data` (in place).
    package init?(data bytes: FileBytes) throws {
        self.bytes = bytes
        guard let eocd = Self.findEndOfCentralDirectory(bytes) else { return nil }
        func u16(_ p: Int) throws -> Int {
            guard p >= 0, p + 2 <= bytes.count else { throw Self.bad("record at \(p) runs past the end of the file") }
            return Int(bytes[p]) | Int(bytes[p + 1]) << 8
        }
        func u32(_ p: Int) throws -> Int {
            guard p >= 0, p + 4 <= bytes.count else { throw Self.bad("record at \(p) runs past the end of the file") }
            return Int(bytes[p]) | Int(bytes[p + 1]) << 8 | Int(bytes[p + 2]) << 16 | Int(bytes[p + 3]) << 24
        }
        let count = try u16(eocd + 10)
        let cdSize = try u32(eocd + 12)
        let cdOffset = try u32(eocd + 16)
        guard cdSize != 0xFFFF_FFFF, cdOffset != 0xFFFF_FFFF else { throw Self.bad("ZIP64 archives are not supported") }
        let cdStart = eocd - cdSize
        guard cdStart >= 0 else { throw Self.bad("central directory size \(cdSize) is larger than the file") }
        // Archives appended to a model may record offsets relative to the archive's own start.
        let shift = cdStart - cdOffset
        var entries: [Entry] = []
        var p = cdStart
        for i in 0..<count {
            guard try u32(p) == 0x0201_4b50 else {
                throw Self.bad("central directory entry \(i) at \(p) has a bad signature")
            }
            let method = try u16(p + 10)
            let crc = try u32(p + 16)
            let csize = try u32(p + 20)
            let usize = try u32(p + 24)
            let nameLength = try u16(p + 28)
            let extraLength = try u16(p + 30)
            let commentLength = try u16(p + 32)
            let local = try u32(p + 42) + shift
            guard p + 46 + nameLength <= bytes.count else {
                throw Self.bad("entry \(i)'s name runs past the end of the file")
            }
            let name = String(decoding: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            guard local >= 0, local + 30 <= bytes.count, try u32(local) == 0x0403_4b50 else {
                throw Self.bad("entry '\(name)' points to offset \(local), where there is no local file header")
            }
            entries.append(
                Entry(
                    name: name, method: UInt16(method), crc32: UInt32(crc), compressedSize: csize,
                    uncompressedSize: usize, localHeaderOffset: local))
            p += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    static func bad(_ what: String) -> TFLiteModelError {
        TFLiteModelError(
            .invalidZip, "The zip archive of associated files appended to the model is malformed: \(what).")
    }

    static func findEndOfCentralDirectory(_ b: FileBytes) -> Int? {
        guard b.count >= 22 else { return nil }
        let lowest = max(0, b.count - 22 - 0xFFFF)
        var p = b.count - 22
        while p >= lowest {
            if b[p] == 0x50 && b[p + 1] == 0x4b && b[p + 2] == 0x05 && b[p + 3] == 0x06 {
                let commentLength = Int(b[p + 20]) | Int(b[p + 21]) << 8
                if p + 22 + commentLength == b.count { return p }
            }
            p -= 1
        }
        return nil
    }

    /// Names of the files, in order.
    package var names: [String] { entries.map(\.name) }

    /// The contents of the file `name`, or a `associatedFileNotFound` error naming it.
    package func contents(of name: String) throws -> [UInt8] {
        guard let entry = entries.first(where: { $0.name == name }) else {
            throw TFLiteModelError(.associatedFileNotFound, "No associated file with name: \(name)")
        }
        return try contents(of: entry)
    }

    /// The contents of `entry`, inflated when deflated, CRC-checked.
    package func contents(of entry: Entry) throws -> [UInt8] {
        let p = entry.localHeaderOffset
        guard p >= 0, p <= bytes.count - 30 else { throw Self.bad("local header of '\(entry.name)' runs past the end") }
        let nameLength = Int(bytes[p + 26]) | Int(bytes[p + 27]) << 8
        let extraLength = Int(bytes[p + 28]) | Int(bytes[p + 29]) << 8
        let start = p + 30 + nameLength + extraLength
        guard entry.compressedSize >= 0, entry.compressedSize <= bytes.count - start else {
            throw Self.bad(
                "data of '\(entry.name)' (\(entry.compressedSize) bytes at \(start)) runs past the end of the file")
        }
        let data: [UInt8]
        switch entry.method {
        case 0:
            data = Array(bytes[start..<(start + entry.compressedSize)])
        case 8:
            data = try Self.inflate(
                Array(bytes[start..<(start + entry.compressedSize)]), expected: entry.uncompressedSize, name: entry.name
            )
        default:
            throw Self.bad(
                "'\(entry.name)' uses compression method \(entry.method); only stored (0) and deflated (8) are "
                    + "supported"
            )
        }
        guard data.count == entry.uncompressedSize else {
            throw Self.bad("'\(entry.name)' has \(data.count) bytes, its header says \(entry.uncompressedSize)")
        }
        let crc = data.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        guard crc == entry.crc32 else { throw Self.bad("'\(entry.name)' fails its CRC-32 check") }
        return data
    }

    static func inflate(_ input: [UInt8], expected: Int, name: String) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max(expected, 1))
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw bad("zlib could not start inflating '\(name)'")
        }
        defer { inflateEnd(&stream) }
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(expected)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw bad("'\(name)' is not valid deflate data (zlib status \(status))") }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// Writes a zip archive of `files` (name, contents), each stored or deflated. Offsets are
    /// relative to the archive's start, as MediaPipe's metadata writer produces.
    package static func write(_ files: [(name: String, contents: [UInt8])], deflate: Bool) throws -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func put16(_ v: Int, _ b: inout [UInt8]) { b += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)] }
        func put32(_ v: Int, _ b: inout [UInt8]) { b += (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
        for file in files {
            let data = file.contents
            let crc = data.withUnsafeBufferPointer { Int(crc32(0, $0.baseAddress, uInt($0.count))) }
            let stored = deflate ? try deflateRaw(data) : data
            let method = deflate ? 8 : 0
            let name = Array(file.name.utf8)
            let offset = out.count
            put32(0x0403_4b50, &out); put16(20, &out); put16(0, &out); put16(method, &out)
            put16(0, &out); put16(0x21, &out)  // time, date (1980-01-01)
            put32(crc, &out); put32(stored.count, &out); put32(data.count, &out)
            put16(name.count, &out); put16(0, &out)
            out += name
            out += stored
            put32(0x0201_4b50, &central); put16(20, &central); put16(20, &central); put16(0, &central);
            put16(method, &central)
            put16(0, &central); put16(0x21, &central)
            put32(crc, &central); put32(stored.count, &central); put32(data.count, &central)
            put16(name.count, &central); put16(0, &central); put16(0, &central); put16(0, &central); put16(0, &central)
            put32(0, &central); put32(offset, &central)
            central += name
        }
        let cdOffset = out.count
        out += central
        put32(0x0605_4b50, &out); put16(0, &out); put16(0, &out)
        put16(files.count, &out); put16(files.count, &out)
        put32(central.count, &out); put32(cdOffset, &out); put16(0, &out)
        return out
    }

    static func deflateRaw(_ data: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            throw TFLiteModelError(.invalidBuilderInput, "zlib could not start deflating")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count)))
        var output = [UInt8](repeating: 0, count: bound + 16)
        var input = data
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(outBuf.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw TFLiteModelError(.invalidBuilderInput, "zlib deflate failed (status \(status))")
        }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
