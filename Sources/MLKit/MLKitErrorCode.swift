/// ML Kit's error codes. iOS does not publish its own; these are Android's `MlKitException` codes,
/// the one documented set.
public enum MLKitErrorCode: Int, Sendable, CaseIterable {
    /// The operation was cancelled, typically by the caller. Not raised by this library.
    case cancelled = 1
    /// An unknown error, or one from another error domain. Raised when a model file exists but cannot be read, or
    /// ``ModelDownloader`` cannot read or move the file it downloaded.
    case unknown = 2
    /// The caller gave an invalid argument. Raised for `numThreads` outside 1…256, a model that cannot be loaded or
    /// is not a labelled image classifier (for the localizer, a detector), an image ``VisionImage`` cannot take, and
    /// a bad download URL, digest or file name.
    case invalidArgument = 3
    /// The deadline expired before the operation completed. Raised when a download makes no progress for
    /// ``ModelDownloader/timeout`` seconds.
    case deadlineExceeded = 4
    /// A requested resource was not found. Raised for a missing model file, missing required model metadata
    /// (`NormalizationOptions`, an associated file), a missing built-in localizer model, and an HTTP 404 download.
    case notFound = 5
    /// A resource the operation tried to create already exists. Not raised by this library.
    case alreadyExists = 6
    /// The caller may not perform the operation. Raised when a model file cannot be opened for lack of permission, or
    /// ``ModelDownloader`` cannot create its cache directory or write the download.
    case permissionDenied = 7
    /// A resource (a quota, memory, disk space) is exhausted. Raised when a download exceeds
    /// ``ModelDownloader/maxBytes``.
    case resourceExhausted = 8
    /// The system is not in the state the operation requires. Raised when LiteRT's runtime library (`libLiteRt.so`)
    /// is missing or lacks the functions the tasks call.
    case failedPrecondition = 9
    /// The operation was aborted, typically by a concurrency conflict. Not raised by this library.
    case aborted = 10
    /// The operation was attempted past the valid range. Not raised by this library.
    case outOfRange = 11
    /// The operation is not implemented or not supported. Raised for a model whose input metadata asks for per-channel
    /// normalization.
    case unimplemented = 12
    /// An internal error (gRPC's `INTERNAL`). Raised when LiteRT fails to compile or run a model, or a model's
    /// outputs do not have the sizes or types its metadata and layout imply.
    case internalError = 13
    /// The service is currently unavailable. Not raised by this library.
    case unavailable = 14
    /// Unrecoverable data loss or corruption. Not raised by this library.
    case dataLoss = 15
    /// The request lacks valid authentication credentials. Not raised by this library.
    case unauthenticated = 16
    /// A network problem while downloading a model (ML Kit-specific). Raised by ``ModelDownloader`` for connection
    /// failures, no response, and HTTP statuses other than success and 404.
    case networkIssue = 17
    /// The downloaded model is incompatible with the TensorFlow Lite runtime (ML Kit-specific). Not raised by this
    /// library: a model LiteRT cannot load is reported as ``invalidArgument``.
    case modelIncompatibleWithTFLite = 100
    /// Not enough space left on the device for the model (ML Kit-specific). Not raised by this library.
    case notEnoughSpace = 101
    /// The downloaded model's hash does not match the expected one (ML Kit-specific). Raised by ``ModelDownloader``
    /// when the file's SHA-256 differs from the pinned digest; the file is discarded.
    case modelHashMismatch = 102
}
