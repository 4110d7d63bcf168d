import VisionCore

/// One class of a result: index, score, label name and display name.
public struct ResultCategory: Equatable, Sendable {
    /// The class index in the model's output (kept even when a label exists).
    public let index: Int
    /// The confidence, usually in [0, 1].
    public let score: Float
    /// The label name from the model's metadata, if any.
    public let categoryName: String?
    /// The label in `displayNamesLocale`, if the model has one.
    public let displayName: String?

    /// A category.
    public init(index: Int, score: Float, categoryName: String?, displayName: String?) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }

    init(_ c: VisionCore.Category) {
        self.init(index: c.index, score: c.score, categoryName: c.categoryName, displayName: c.displayName)
    }
}
