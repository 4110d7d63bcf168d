/// A scored class in a result: class index, score, label name and display name.
public struct Category: Equatable, Sendable {
    public var index: Int
    public var score: Float
    public var categoryName: String?
    public var displayName: String?

    public init(index: Int, score: Float, categoryName: String? = nil, displayName: String? = nil) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }
}
