/// The one error type of the imaging layer: undecodable files, bad pixel layouts, bad regions.
package struct ImagingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem this is.
    package enum Code: String, Sendable {
        /// The file could not be read.
        case fileUnreadable
        /// The bytes are not a JPEG or PNG we can decode.
        case unsupportedFormat
        /// A JPEG or PNG that is corrupt or truncated.
        case corruptImage
        /// Pixel data that does not match its declared size, stride or format.
        case invalidPixelData
        /// A region of interest or output size that cannot be used.
        case invalidRegion
        /// Encoding failed.
        case encodingFailed
        /// A picture larger than ``ImageLimits`` allow (refused from its header, before decoding).
        case tooLarge
    }

    package let code: Code
    package let message: String
    /// The lower layer's error this one was made from, if any (not compared by `==`).
    package let underlying: (any Error)?

    package init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    package static func == (a: ImagingError, b: ImagingError) -> Bool { a.code == b.code && a.message == b.message }

    package var description: String { message }
}
