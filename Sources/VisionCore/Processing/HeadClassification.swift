/// One output head's categories, best first.
package struct HeadClassification: Equatable, Sendable {
    package var headIndex: Int
    /// The output tensor's metadata name, or "" when it has none.
    package var headName: String
    package var categories: [Category]

    package init(headIndex: Int, headName: String, categories: [Category]) {
        self.headIndex = headIndex
        self.headName = headName
        self.categories = categories
    }
}
