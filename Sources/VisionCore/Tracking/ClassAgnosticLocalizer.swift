import Imaging

/// A detector model run class-agnostically (ML Kit's localizer): every class merged, each box
/// scored by its best class, overlapping boxes suppressed whatever their class (IoU above
/// ``suppressionIoU``), so each object gets one box.
package final class ClassAgnosticLocalizer: ObjectLocalizing {
    package let engine: ObjectDetectionEngine
    /// Boxes overlapping a better one by more than this IoU are dropped.
    package static let suppressionIoU = 0.5

    package init(engine: ObjectDetectionEngine) { self.engine = engine }

    package func localize(_ bitmap: Bitmap, orientation: ImageOrientation) throws -> [LocalizedBox] {
        let candidates = try engine.detect(bitmap, orientation: orientation).compactMap { b -> LocalizedBox? in
            guard let score = b.categories.map(\.score).max(), score.isFinite, b.width > 0, b.height > 0 else {
                return nil
            }
            return LocalizedBox(
                box: TrackBox(x: Double(b.x), y: Double(b.y), width: Double(b.width), height: Double(b.height)),
                score: score)
        }
        return NonMaximumSuppression.greedy(candidates, score: \.score, limit: 0) {
            $0.box.iou($1.box) > Self.suppressionIoU
        }
    }
}
