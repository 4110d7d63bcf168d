/// The result options detectors and classifiers share (MediaPipe's `DetectorOptions` and
/// `ClassifierOptions` protos have the same fields): label locale, how many results, threshold,
/// allow and deny lists.
package struct ResultOptions: Equatable, Sendable {
    /// Locale of the label file that fills display names (exact match).
    package var displayNamesLocale: String?
    /// At most this many results (detections, or categories per head); negative = all. Zero is rejected.
    package var maxResults: Int
    /// Keep results scoring at least this; nil = the metadata's threshold, or none.
    package var scoreThreshold: Float?
    /// The threshold when neither `scoreThreshold` nor the metadata gives one: none for MediaPipe,
    /// 0 for ML Kit.
    package var fallbackScoreThreshold: Float = -Float.greatestFiniteMagnitude
    /// `scoreThreshold` is the facade's default (MediaPipe's 0), not the caller's choice: YOLO
    /// detectors then use Ultralytics' 0.25 (``YOLODecoding/defaultScoreThreshold``) instead.
    package var scoreThresholdIsDefault = false
    /// Only these label names (mutually exclusive with `categoryDenylist`).
    package var categoryAllowlist: [String]
    /// Not these label names.
    package var categoryDenylist: [String]

    package init(
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

extension ResultOptions {
    /// MediaPipe's checks of these options: `maxResults` is not 0 (refused with `maxResultsMessage`,
    /// whose wording differs between MediaPipe's tasks), the allow and deny lists are not both given.
    package func validate(maxResultsMessage: String) throws {
        guard maxResults != 0 else { throw VisionCoreError(.invalidArgument, maxResultsMessage) }
        guard categoryAllowlist.isEmpty || categoryDenylist.isEmpty else {
            throw VisionCoreError(
                .invalidArgument, "`category_allowlist` and `category_denylist` are mutually exclusive options.")
        }
    }
}

/// The detector's result options.
package typealias DetectorOptions = ResultOptions
/// The classifier's result options.
package typealias ClassifierOptions = ResultOptions
