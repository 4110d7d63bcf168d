/// The result options detectors and classifiers share (MediaPipe's `DetectorOptions` and
/// `ClassifierOptions` protos have the same fields): label locale, how many results, threshold,
/// allow and deny lists.
public struct ResultOptions: Equatable, Sendable {
    /// Locale of the label file that fills display names (exact match).
    public var displayNamesLocale: String?
    /// At most this many results (detections, or categories per head); negative = all. Zero is rejected.
    public var maxResults: Int
    /// Keep results scoring at least this; nil = the metadata's threshold, or none.
    public var scoreThreshold: Float?
    /// The threshold when neither `scoreThreshold` nor the metadata gives one: none for MediaPipe,
    /// 0 for ML Kit.
    public var fallbackScoreThreshold: Float = -Float.greatestFiniteMagnitude
    /// `scoreThreshold` is the facade's default (MediaPipe's 0), not the caller's choice: YOLO
    /// detectors then use Ultralytics' 0.25 (``YOLOOptions/defaultScoreThreshold``) instead.
    public var scoreThresholdIsDefault = false
    /// Only these label names (mutually exclusive with `categoryDenylist`).
    public var categoryAllowlist: [String]
    /// Not these label names.
    public var categoryDenylist: [String]

    public init(
        displayNamesLocale: String? = "en", maxResults: Int = -1, scoreThreshold: Float? = nil,
        categoryAllowlist: [String] = [], categoryDenylist: [String] = []
    ) {
        self.displayNamesLocale = displayNamesLocale
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
    }
}

/// The detector's result options.
public typealias DetectorOptions = ResultOptions
/// The classifier's result options.
public typealias ClassifierOptions = ResultOptions
