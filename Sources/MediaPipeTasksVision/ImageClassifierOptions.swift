/// Options of an ``ImageClassifier``.
public final class ImageClassifierOptions: TaskOptions, @unchecked Sendable {
    /// Image (default), video or live stream.
    public var runningMode: RunningMode = .image
    /// Locale of the label file used for display names (nil → "en").
    public var displayNamesLocale: String?
    /// At most this many categories per head; -1 (default) = all; 0 is an error.
    public var maxResults: Int = -1
    /// Keep categories scoring at least this. Unset: each head's metadata threshold applies, if any.
    public var scoreThreshold: Float?
    /// Only these label names (mutually exclusive with `categoryDenylist`).
    public var categoryAllowlist: [String] = []
    /// Not these label names.
    public var categoryDenylist: [String] = []
    /// Receives results in live-stream mode (required then, refused otherwise). Held weakly.
    public weak var imageClassifierLiveStreamDelegate: (any ImageClassifierLiveStreamDelegate)?

    public override init() {}
}
