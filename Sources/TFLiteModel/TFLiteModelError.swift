/// The one error type of the model-file layer: malformed flatbuffers, metadata, zips, label files.
package struct TFLiteModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem this is.
    package enum Code: String, Sendable {
        /// Bytes that end before the structure they describe.
        case truncated
        /// Not a valid FlatBuffer (bad offsets, sizes, or identifier).
        case invalidFlatBuffer
        /// Metadata flatbuffer with the wrong file identifier.
        case invalidMetadataIdentifier
        /// Metadata needs a newer parser than ours.
        case unsupportedMetadataVersion
        /// The zip appended to the model is malformed.
        case invalidZip
        /// A file the metadata names is not in the model.
        case associatedFileNotFound
        /// A label or score-calibration file that cannot be used.
        case invalidAssociatedFile
        /// Custom options (FlexBuffers) that cannot be parsed.
        case invalidCustomOptions
        /// The builder was asked for something it cannot write.
        case invalidBuilderInput
        /// Metadata for a float32 input was asked for without its normalization (mean and std).
        case normalizationMissing
        /// The file could not be read.
        case fileUnreadable
        /// A well-formed model that would make the runtime crash, hang or exhaust memory.
        case unsafeModel
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

    package static func == (a: TFLiteModelError, b: TFLiteModelError) -> Bool {
        a.code == b.code && a.message == b.message
    }

    package var description: String { message }
}
