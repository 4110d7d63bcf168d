/// MediaPipe's error codes (`MPPTasksErrorCode`, an `NSUInteger` enum), in the
/// `com.google.mediapipe.tasks` domain. 1–16 are the generic codes; 17–20 are the audio-record codes
/// the iOS header declares (no vision task raises them).
public enum TasksErrorCode: UInt, Sendable, CaseIterable {
    /// The operation was cancelled, typically by the caller.
    case cancelledError = 1
    /// An unknown error occurred.
    case unknownError = 2
    /// The caller specified an invalid argument.
    case invalidArgumentError = 3
    /// A deadline expired before the operation could complete.
    case deadlineExceededError = 4
    /// A requested entity (such as a file) was not found.
    case notFoundError = 5
    /// The entity a caller attempted to create already exists.
    case alreadyExistsError = 6
    /// The caller does not have permission to execute the operation.
    case permissionDeniedError = 7
    /// Some resource has been exhausted.
    case resourceExhaustedError = 8
    /// The system is not in a state required for the operation.
    case failedPreconditionError = 9
    /// The operation was aborted.
    case abortedError = 10
    /// The operation was attempted past the valid range.
    case outOfRangeError = 11
    /// The operation is not implemented or supported.
    case unimplementedError = 12
    /// An internal invariant was broken.
    case internalError = 13
    /// The service is currently unavailable.
    case unavailableError = 14
    /// Unrecoverable data loss or corruption.
    case dataLossError = 15
    /// The request lacks valid authentication credentials.
    case unauthenticatedError = 16
    /// Audio record permissions were denied by the user.
    case audioRecordPermissionDeniedError = 17
    /// Audio record permissions cannot be determined.
    case audioRecordPermissionUndeterminedError = 18
    /// `AudioRecord` is waiting for new microphone input.
    case audioRecordWaitingForNewMicInputError = 19
    /// `AudioRecord` is not tapping the microphone.
    case audioRecordNotTappingMicError = 20

    /// The first error code (`MPPTasksErrorCodeFirst`).
    public static let first = TasksErrorCode.cancelledError
    /// The last error code (`MPPTasksErrorCodeLast`).
    public static let last = TasksErrorCode.audioRecordNotTappingMicError
}
