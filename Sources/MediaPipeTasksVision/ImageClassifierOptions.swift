/// Options of an ``ImageClassifier``: running mode, result filtering (``VisionTaskOptions``; the
/// limits apply per head) and the live-stream delegate.
public final class ImageClassifierOptions: VisionTaskOptions, @unchecked Sendable {
    /// Receives results in live-stream mode (required then, refused otherwise). Held weakly.
    public weak var imageClassifierLiveStreamDelegate: (any ImageClassifierLiveStreamDelegate)?

    /// Default options: image mode, all categories, no threshold, no lists.
    public override init() {}
}
