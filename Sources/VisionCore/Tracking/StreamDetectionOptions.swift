/// How a ``StreamDetectionSession`` picks, tracks and labels objects (ML Kit's object detector
/// options, resolved).
package struct StreamDetectionOptions: Equatable, Sendable {
    /// Single pictures (no tracking) or a stream (objects tracked across frames, with IDs).
    package enum Mode: Sendable { case singleImage, stream }

    package var mode: Mode
    /// At most this many objects (1: the most prominent one).
    package var maxObjects: Int
    /// Single-image mode keeps localizer boxes scoring at least this.
    package var localizerThreshold: Float
    /// Stream mode reuses a track's labels for this many frames while its box stays put.
    package var reclassifyInterval: Int
    /// …and while the box overlaps the one last classified by at least this IoU.
    package var reclassifyIoU: Double
    /// The box is grown by this fraction of its width and height on each side before it is classified.
    package var classificationMargin: Double
    /// The tracker's options (stream mode).
    package var tracker: TrackerOptions

    /// Options with out-of-range values replaced by the defaults (threshold 0.5, interval ≥ 1,
    /// IoU 0.6, margin 0…1 else 0.1, at least one object).
    package init(
        mode: Mode, maxObjects: Int, localizerThreshold: Float = 0.5, reclassifyInterval: Int = 30,
        reclassifyIoU: Double = 0.6,
        classificationMargin: Double = 0.1, tracker: TrackerOptions = TrackerOptions()
    ) {
        self.mode = mode
        self.maxObjects = max(1, maxObjects)
        self.localizerThreshold = localizerThreshold.isFinite ? localizerThreshold : 0.5
        self.reclassifyInterval = max(1, reclassifyInterval)
        self.reclassifyIoU = reclassifyIoU.isFinite ? reclassifyIoU : 0.6
        self.classificationMargin = classificationMargin.isFinite ? min(max(classificationMargin, 0), 1) : 0.1
        self.tracker = tracker
    }
}
