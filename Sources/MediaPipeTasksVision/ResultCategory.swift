import Foundation
import VisionCore

/// One class of a result: index, score, label name and display name (`MPPCategory`).
public final class ResultCategory: NSObject, Sendable {
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

    convenience init(_ c: VisionCore.Category) {
        self.init(index: c.index, score: c.score, categoryName: c.categoryName, displayName: c.displayName)
    }

    /// Field-by-field equality (an extension: iOS compares identity).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? ResultCategory else { return false }
        return o.index == index && o.score == score && o.categoryName == categoryName && o.displayName == displayName
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { index.hashValue ^ score.hashValue ^ (categoryName?.hashValue ?? 0) }

    /// `index score categoryName displayName`, for debugging.
    public override var description: String {
        "ResultCategory(index: \(index), score: \(score), categoryName: \(categoryName ?? "nil"), displayName: "
            + "\(displayName ?? "nil"))"
    }
}
