/// A labelled object of an evaluation set (a COCO annotation): its image, category and box; `area`
/// is the annotation's own (COCO's files give the segmentation's area), the box's by default;
/// crowd boxes (`iscrowd`) are never counted as missed and may be matched by many detections.
public struct GroundTruthBox: Sendable, Hashable {
    public var imageId: Int
    public var categoryId: Int
    public var box: Box
    public var area: Double
    public var isCrowd: Bool

    public init(imageId: Int, categoryId: Int, box: Box, area: Double? = nil, isCrowd: Bool = false) {
        self.imageId = imageId
        self.categoryId = categoryId
        self.box = box
        self.area = area ?? box.area
        self.isCrowd = isCrowd
    }
}
