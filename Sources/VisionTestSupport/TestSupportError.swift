/// A failure in test set-up.
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
