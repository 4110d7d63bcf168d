/// A detection to evaluate (a COCO result): its image, category, box and score.
public struct DetectedBox: Sendable, Hashable {
    public var imageId: Int
    public var categoryId: Int
    public var box: Box
    public var score: Double

    public init(imageId: Int, categoryId: Int, box: Box, score: Double) {
        self.imageId = imageId
        self.categoryId = categoryId
        self.box = box
        self.score = score
    }
}
