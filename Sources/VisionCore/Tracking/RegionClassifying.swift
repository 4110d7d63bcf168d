import Imaging

/// Labels a region of a picture: what ``StreamDetectionSession`` runs on each object's box.
/// ``ImageClassificationEngine`` is the real one; tests script the labels.
package protocol RegionClassifying: Sendable {
    /// The categories of `region` (normalized, in the stored pixels) of `bitmap` shown with
    /// `orientation`, best first.
    func classifyRegion(_ bitmap: Bitmap, orientation: ImageOrientation, region: NormalizedRect) throws -> [Category]
}

extension ImageClassificationEngine: RegionClassifying {
    /// The first head's categories.
    package func classifyRegion(
        _ bitmap: Bitmap, orientation: ImageOrientation, region: NormalizedRect
    ) throws -> [Category] {
        try classify(bitmap, orientation: orientation, region: region).first?.categories ?? []
    }
}
