/// A labelled object of an evaluation set (a COCO annotation): its image, category and box; `area`
/// is the annotation's own (COCO's files give the segmentation's area), the box's by default;
/// crowd boxes (`iscrowd`) are never counted as missed and may be matched by many detections.
public struct GroundTruthBox: Sendable, Hashable {
    /// The picture it belongs to.
    public var imageId: Int
    /// Its class.
    public var categoryId: Int
    /// Where, in pixels.
    public var box: Box
    /// Its area (COCO's segment area when given, else the box's).
    public var area: Double
    /// A crowd region (matches any number of detections, never counted as missed).
    public var isCrowd: Bool

    /// A ground-truth box; `area` defaults to the box's.
    public init(imageId: Int, categoryId: Int, box: Box, area: Double? = nil, isCrowd: Bool = false) {
        self.imageId = imageId
        self.categoryId = categoryId
        self.box = box
        self.area = area ?? box.area
        self.isCrowd = isCrowd
    }
}
