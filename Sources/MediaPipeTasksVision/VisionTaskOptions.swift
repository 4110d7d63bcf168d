import VisionCore

/// The options MediaPipe's detector and classifier share: running mode and result filtering.
open class VisionTaskOptions: TaskOptions, @unchecked Sendable {
    /// Image (default), video or live stream.
    public var runningMode: RunningMode = .image
    /// Locale of the label file used for display names (nil → "en").
    public var displayNamesLocale: String?
    /// At most this many results (detections, or categories per head); -1 (default) = all; 0 is an error.
    public var maxResults: Int = -1
    /// Keep results scoring at least this. Unset: the model metadata's threshold applies, if any.
    public var scoreThreshold: Float?
    /// Only these label names (mutually exclusive with `categoryDenylist`).
    public var categoryAllowlist: [String] = []
    /// Not these label names.
    public var categoryDenylist: [String] = []

    /// Default options.
    public override init() {}

    /// The core's view of these options.
    var resultOptions: ResultOptions {
        ResultOptions(displayNamesLocale: displayNamesLocale ?? "en", maxResults: maxResults, scoreThreshold: scoreThreshold,
                      categoryAllowlist: categoryAllowlist, categoryDenylist: categoryDenylist)
    }
}
