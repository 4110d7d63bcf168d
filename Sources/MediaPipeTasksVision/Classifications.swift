import VisionCore

/// The categories one output head of a classifier gives, best first.
public struct Classifications: Equatable, Sendable {
    /// The head's position among the model's outputs.
    public let headIndex: Int
    /// The head's name from the model's metadata, or "" when it has none.
    public let headName: String?
    /// The categories kept, highest score first.
    public let categories: [ResultCategory]

    /// A head's result.
    public init(headIndex: Int, headName: String?, categories: [ResultCategory]) {
        self.headIndex = headIndex
        self.headName = headName
        self.categories = categories
    }

    init(_ head: HeadClassification) {
        self.init(headIndex: head.headIndex, headName: head.headName, categories: head.categories.map(ResultCategory.init))
    }
}
