/// A detection to evaluate (a COCO result): its image, category, box and score.
public struct DetectedBox: Sendable, Hashable {
    /// The picture it was found in.
    public var imageId: Int
    /// The class found.
    public var categoryId: Int
    /// Where, in pixels.
    public var box: Box
    /// The detector's score.
    public var score: Double

    /// A detection of `categoryId` in picture `imageId`.
    public init(imageId: Int, categoryId: Int, box: Box, score: Double) {
        self.imageId = imageId
        self.categoryId = categoryId
        self.box = box
        self.score = score
    }
}
