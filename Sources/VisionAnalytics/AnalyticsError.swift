/// What went wrong in an evaluation or a count: a code and a message that says what to change.
public struct AnalyticsError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: String, Sendable {
        /// A dataset, results file, ground truth or zone definition that cannot be used as given.
        case badInput
    }

    /// What kind of problem this is.
    public let code: Code
    /// What is wrong, naming the file and line when there is one.
    public let message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
