/// What went wrong in an evaluation or a count: a code and a message that says what to change.
public struct AnalyticsError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// A dataset, results file, ground truth or zone definition that cannot be used as given.
        case badInput
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
