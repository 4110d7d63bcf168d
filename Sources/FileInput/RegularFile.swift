#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads whole regular files, refusing anything else without blocking: the file is opened with
/// `O_NONBLOCK` (a FIFO with no writer cannot hang the caller), checked with `fstat` to be a
/// regular file of at most `maxBytes`, and only then read.
public enum RegularFile {
    /// The bytes of the regular file at `path`, at most `maxBytes` long.
    public static func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let err = errno
            switch err {
            case ENOENT, ENOTDIR: throw FileInputError(.notFound, "Unable to open file at \(path)")
            case EACCES, EPERM: throw FileInputError(.permissionDenied, "Unable to open file at \(path): permission denied")
            default: throw FileInputError(.unreadable, "Unable to open file at \(path), errno=\(err)")
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileInputError(.unreadable, "Unable to open file at \(path), errno=\(errno)") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let kind = (info.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
            throw FileInputError(.notRegularFile, "Unable to open file at \(path): it is \(kind)")
        }
        let size = Int(info.st_size)
        guard size <= maxBytes else {
            throw FileInputError(.tooLarge, "Unable to open file at \(path): its \(size) bytes exceed the limit of \(maxBytes)")
        }
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
