/// Why a file could not be read: the one error type of the file-input layer.
package struct FileInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Code: Sendable, Equatable {
        /// No file at that path.
        case notFound
        /// The file exists but may not be read.
        case permissionDenied
        /// A FIFO, device, socket or directory: refused without blocking on it.
        case notRegularFile
        /// Larger than the caller's limit.
        case tooLarge
        /// Any other failure of `open`, `fstat` or `read` (errno in the message).
        case unreadable
    }

    /// What went wrong.
    package let code: Code
    /// A message naming the path and the reason.
    package let message: String

    /// An error with `code` and `message`.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
