/// How a ``StreamDetectionSession`` picks, tracks and labels objects (ML Kit's object detector
/// options, resolved).
public struct StreamDetectionOptions: Equatable, Sendable {
    /// Single pictures (no tracking) or a stream (objects tracked across frames, with IDs).
    public enum Mode: Sendable { case singleImage, stream }

    public var mode: Mode
    /// At most this many objects (1: the most prominent one).
    public var maxObjects: Int
    /// Single-image mode keeps localizer boxes scoring at least this.
    public var localizerThreshold: Float
    /// Stream mode reuses a track's labels for this many frames while its box stays put.
    public var reclassifyInterval: Int
    /// …and while the box overlaps the one last classified by at least this IoU.
    public var reclassifyIoU: Double
    /// The box is grown by this fraction of its width and height on each side before it is classified.
    public var classificationMargin: Double
    /// The tracker's options (stream mode).
    public var tracker: TrackerOptions

    /// Options with out-of-range values replaced by the defaults (threshold 0.5, interval ≥ 1,
    /// IoU 0.6, margin 0…1 else 0.1, at least one object).
    public init(
        mode: Mode, maxObjects: Int, localizerThreshold: Float = 0.5, reclassifyInterval: Int = 30, reclassifyIoU: Double = 0.6,
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
