#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads whole regular files, refusing anything else without blocking: the file is opened with
/// `O_NONBLOCK` (a FIFO with no writer cannot hang the caller), checked with `fstat` to be a
/// regular file of at most `maxBytes`, and only then read.
package enum RegularFile {
    /// The bytes of the regular file at `path`, at most `maxBytes` long.
    package static func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let (fd, info) = try open(path, maxBytes: maxBytes)
        defer { close(fd) }
        return read(fd, size: Int(info.st_size))
    }

    /// Opens the regular file at `path` for reading without blocking, checks that it is a regular file
    /// of at most `maxBytes`; returns the descriptor (the caller closes it) and the file's status.
    static func open(_ path: String, maxBytes: Int) throws -> (fd: Int32, info: stat) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let err = errno
            switch err {
            case ENOENT, ENOTDIR: throw FileInputError(.notFound, "Unable to open file at \(path)")
            case EACCES, EPERM:
                throw FileInputError(.permissionDenied, "Unable to open file at \(path): permission denied")
            default: throw FileInputError(.unreadable, "Unable to open file at \(path), errno=\(err)")
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let err = errno
            close(fd)
            throw FileInputError(.unreadable, "Unable to open file at \(path), errno=\(err)")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            let kind = (info.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
            throw FileInputError(.notRegularFile, "Unable to open file at \(path): it is \(kind)")
        }
        let size = Int(info.st_size)
        guard size <= maxBytes else {
            close(fd)
            throw FileInputError(
                .tooLarge, "Unable to open file at \(path): its \(size) bytes exceed the limit of \(maxBytes)")
        }
        return (fd, info)
    }

    /// Up to `size` bytes read from `fd` (fewer when the file shrank while being read).
    static func read(_ fd: Int32, size: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.read(fd, base + done, size - done)
            }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { break }  // the file shrank while being read: keep what was there
            done += n
        }
        return done == size ? bytes : Array(bytes.prefix(done))
    }
}
