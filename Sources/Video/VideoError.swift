/// The one error type of the video layer: files that cannot be opened, damaged or truncated
/// streams, frames beyond the limits, and output that cannot be written.
public struct VideoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: String, Sendable {
        /// The file is missing, unreadable, not a video, or has no decodable video stream.
        case cannotOpen
        /// The stream is damaged or truncated; the frames before the damage were delivered.
        case corruptStream
        /// A frame larger than the reader's limit, or memory ran out.
        case tooLarge
        /// The output video could not be encoded or written.
        case cannotWrite
        /// A caller's argument that cannot be used (size, frame rate, timestamps).
        case invalidArgument
    }

    /// What kind of failure this is.
    public let code: Code
    /// What happened, naming the file or source.
    public let message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// A NUL-terminated message buffer from the C layer as a string.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The error for a status of the C layer.
    init(status: Int32, message: String) {
        switch status {
        case -1: self.init(.cannotOpen, message)
        case -2: self.init(.corruptStream, message)
        case -3: self.init(.tooLarge, message)
        case -4: self.init(.cannotWrite, message)
        default: self.init(.invalidArgument, message)
        }
    }
}
