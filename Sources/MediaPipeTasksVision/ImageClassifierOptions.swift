import Foundation

/// Options of an ``ImageClassifier`` (`MPPImageClassifierOptions`): running mode, result filtering
/// (``VisionTaskOptions``; the limits apply per head) and the live-stream delegate.
public final class ImageClassifierOptions: VisionTaskOptions {
    /// Receives results in live-stream mode (required then, refused otherwise). Held weakly.
    public weak var imageClassifierLiveStreamDelegate: (any ImageClassifierLiveStreamDelegate)?

    /// Default options: image mode, all categories, threshold 0, no lists.
    public required init() {}

    /// An independent copy, the delegate included (still held weakly).
    public override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone)
        (c as? ImageClassifierOptions)?.imageClassifierLiveStreamDelegate = imageClassifierLiveStreamDelegate
        return c
    }
}
