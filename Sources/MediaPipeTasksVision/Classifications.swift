import Foundation
import VisionCore

/// The categories one output head of a classifier gives, best first (`MPPClassifications`).
public final class Classifications: NSObject, Sendable {
    /// The head's position among the model's outputs.
    public let headIndex: Int
    /// The head's name from the model's metadata ("" when the metadata names none), or nil.
    public let headName: String?
    /// The categories kept, highest score first.
    public let categories: [ResultCategory]

    /// A head's result.
    public init(headIndex: Int, headName: String?, categories: [ResultCategory]) {
        self.headIndex = headIndex
        self.headName = headName
        self.categories = categories
    }

    /// A head's result without a name, as iOS's `initWithHeadIndex:categories:`.
    public convenience init(headIndex: Int, categories: [ResultCategory]) {
        self.init(headIndex: headIndex, headName: nil, categories: categories)
    }

    convenience init(_ head: HeadClassification) {
        self.init(
            headIndex: head.headIndex, headName: head.headName, categories: head.categories.map(ResultCategory.init))
    }

    /// Same head and categories (an extension: iOS compares identity).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? Classifications else { return false }
        return o.headIndex == headIndex && o.headName == headName && o.categories == categories
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { headIndex.hashValue ^ categories.count.hashValue }
}
