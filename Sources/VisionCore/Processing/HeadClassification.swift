/// One output head's categories, best first.
public struct HeadClassification: Equatable, Sendable {
    public var headIndex: Int
    /// The output tensor's metadata name, or "" when it has none.
    public var headName: String
    public var categories: [Category]

    public init(headIndex: Int, headName: String, categories: [Category]) {
        self.headIndex = headIndex
        self.headName = headName
        self.categories = categories
    }
}
