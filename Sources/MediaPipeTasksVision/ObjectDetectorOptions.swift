/// Options of an ``ObjectDetector``: running mode, result filtering (``VisionTaskOptions``) and the
/// live-stream delegate.
public final class ObjectDetectorOptions: VisionTaskOptions, @unchecked Sendable {
    /// Receives results in live-stream mode (required then, refused otherwise). Held weakly.
    public weak var objectDetectorLiveStreamDelegate: (any ObjectDetectorLiveStreamDelegate)?

    /// Default options: image mode, all results, no threshold, no lists.
    public override init() {}
}
