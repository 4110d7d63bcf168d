/// ML Kit's error codes. iOS does not publish its own; these are Android's `MlKitException` codes,
/// the one documented set.
public enum MLKitErrorCode: Int, Sendable, CaseIterable {
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case deadlineExceeded = 4
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case aborted = 10
    case outOfRange = 11
    case unimplemented = 12
    case internalError = 13
    case unavailable = 14
    case dataLoss = 15
    case unauthenticated = 16
    case networkIssue = 17
    case modelIncompatibleWithTFLite = 100
    case notEnoughSpace = 101
    case modelHashMismatch = 102
}
