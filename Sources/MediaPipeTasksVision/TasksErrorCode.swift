/// MediaPipe's error codes (`MPPTasksErrorCode`), in the `com.google.mediapipe.tasks` domain.
public enum TasksErrorCode: Int, Sendable {
    case cancelledError = 1
    case unknownError = 2
    case invalidArgumentError = 3
    case deadlineExceededError = 4
    case notFoundError = 5
    case alreadyExistsError = 6
    case permissionDeniedError = 7
    case resourceExhaustedError = 8
    case failedPreconditionError = 9
    case abortedError = 10
    case outOfRangeError = 11
    case unimplementedError = 12
    case internalError = 13
    case unavailableError = 14
    case dataLossError = 15
    case unauthenticatedError = 16
}
