#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Read-only bytes that stay at one 64-byte-aligned address for their lifetime: a regular file
/// mapped into memory, or a copy of bytes given in memory. A mapped file is not read up front: its
/// pages come from the page cache as they are touched and are shared with every other mapping of
/// the file, so a model parsed from it and run by LiteRT from the same address is held once.
///
/// A mapped file must not be modified in place while mapped — as with any memory-mapped model loader
/// (LiteRT's and MediaPipe's included): a private mapping is no snapshot, so reading a page past a
/// truncated end raises `SIGBUS`, and rewritten bytes would be read unchecked. Replacing a file by
/// rename is safe; to be independent of the file, load a copy of its bytes instead.
// @unchecked Sendable: every stored property is a `let` and the bytes are never written after
// initialization (a read-only mapping, or a private copy).
package final class FileBytes: @unchecked Sendable {
    /// The bytes.
    package let buffer: UnsafeRawBufferPointer
    /// Whether the bytes are (or end with) a mapping of a file, rather than a copy in memory.
    package let isMapped: Bool
    /// The mapped region (it can start before ``buffer``).
    private let region: UnsafeMutableRawPointer?
    private let regionLength: Int
    /// The mapped file, to map it again behind a new head: its path and identity (device, inode,
    /// size, modification time), checked when it is opened again.
    private let file: (path: String, info: stat)?

    /// Number of bytes.
    package var count: Int { buffer.count }

    private init(
        buffer: UnsafeRawBufferPointer, region: UnsafeMutableRawPointer? = nil, regionLength: Int = 0,
        file: (path: String, info: stat)? = nil
    ) {
        self.buffer = buffer
        self.isMapped = region != nil
        self.region = region
        self.regionLength = regionLength
        self.file = file
    }

    /// 64-byte-aligned memory holding `parts` one after the other (deallocated by `deinit`).
    private static func alignedCopy(of parts: [UnsafeRawBufferPointer]) -> UnsafeRawBufferPointer {
        let count = parts.reduce(0) { $0 + $1.count }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 64)
        var at = 0
        for part in parts {
            if let base = part.baseAddress { (memory + at).copyMemory(from: base, byteCount: part.count) }
            at += part.count
        }
        return UnsafeRawBufferPointer(start: memory, count: count)
    }

    /// A 64-byte-aligned copy of `bytes`.
    package convenience init<Bytes: Collection>(copying bytes: Bytes) where Bytes.Element == UInt8 {
        let copy =
            bytes.withContiguousStorageIfAvailable { Self.alignedCopy(of: [UnsafeRawBufferPointer($0)]) }
            ?? Array(bytes).withUnsafeBytes { Self.alignedCopy(of: [$0]) }
        self.init(buffer: copy)
    }

    /// The regular file at `path` (at most `maxBytes`), mapped read-only — or read into memory when
    /// the file system cannot map it. Errors as ``RegularFile/read(_:maxBytes:)``'s.
    package convenience init(mapping path: String, maxBytes: Int) throws {
        let (fd, info) = try RegularFile.open(path, maxBytes: maxBytes)
        defer { close(fd) }
        let size = Int(info.st_size)
        if size > 0, let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED {
            self.init(
                buffer: UnsafeRawBufferPointer(start: address, count: size), region: address, regionLength: size,
                file: (path, info))
        } else {
            self.init(buffer: RegularFile.read(fd, size: size).withUnsafeBytes { Self.alignedCopy(of: [$0]) })
        }
    }

    /// `head` followed by all of `tail`'s bytes. When `tail` is a mapped file, the file is mapped
    /// again right behind a copy of the head (sharing its pages with `tail`'s mapping and the page
    /// cache) — if it is still the same file (device, inode, size and modification time; one
    /// replaced since is not mapped) —, else both are copied. `head.count` must be a multiple of 64
    /// for the result to be mapped (it starts on a 64-byte boundary either way).
    package convenience init(head: [UInt8], followedBy tail: FileBytes) {
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let headPages = (head.count + page - 1) / page * page
        let length = headPages + tail.count
        if head.count % 64 == 0, let fd = tail.reopen() {
            defer { close(fd) }
            if let reserved = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                reserved != MAP_FAILED
            {
                let start = reserved + (headPages - head.count)
                head.withUnsafeBytes { source in
                    if let base = source.baseAddress { start.copyMemory(from: base, byteCount: source.count) }
                }
                let mapped = mmap(reserved + headPages, tail.count, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0)
                if mapped == reserved + headPages, mprotect(reserved, headPages, PROT_READ) == 0 {
                    self.init(
                        buffer: UnsafeRawBufferPointer(start: start, count: head.count + tail.count), region: reserved,
                        regionLength: length)
                    return
                }
                munmap(reserved, length)
            }
        }
        self.init(buffer: head.withUnsafeBytes { Self.alignedCopy(of: [$0, tail.buffer]) })
    }

    /// The mapped file opened again, if it is still the one mapped; the caller closes it.
    private func reopen() -> Int32? {
        guard isMapped, let file, let (fd, info) = try? RegularFile.open(file.path, maxBytes: Int.max) else {
            return nil
        }
        let was = file.info
        guard info.st_dev == was.st_dev, info.st_ino == was.st_ino, info.st_size == was.st_size,
            info.st_mtim.tv_sec == was.st_mtim.tv_sec, info.st_mtim.tv_nsec == was.st_mtim.tv_nsec
        else {
            close(fd)
            return nil
        }
        return fd
    }

    deinit {
        if let region {
            munmap(region, regionLength)
        } else {
            buffer.baseAddress.map { UnsafeMutableRawPointer(mutating: $0).deallocate() }
        }
    }

    /// The byte at `index` (traps outside 0..<``count``, as an array would).
    @inline(__always)
    package subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < buffer.count, "FileBytes index \(index) out of 0..<\(buffer.count)")
        return buffer[index]
    }

    /// The bytes in `range` (traps outside 0...``count``, as an array would); valid while this object lives.
    @inline(__always)
    package subscript(range: Range<Int>) -> Slice<UnsafeRawBufferPointer> {
        precondition(
            range.lowerBound >= 0 && range.upperBound <= buffer.count,
            "FileBytes range \(range) out of 0..<\(buffer.count)")
        return buffer[range]
    }

    /// A copy of all the bytes as an array.
    package var array: [UInt8] { [UInt8](buffer) }
}
