/// A scored class in a result: class index, score, label name and display name.
package struct Category: Equatable, Sendable {
    package var index: Int
    package var score: Float
    package var categoryName: String?
    package var displayName: String?

    package init(index: Int, score: Float, categoryName: String? = nil, displayName: String? = nil) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }
}
