/// The options of classification post-processing shared by both facades.
public struct ClassifierOptions: Equatable, Sendable {
    /// Locale of the label file that fills display names (exact match).
    public var displayNamesLocale: String?
    /// Keep the top `maxResults` categories per head; negative = all. Zero is rejected.
    public var maxResults: Int
    /// Keep categories scoring at least this; nil = each head's metadata threshold, or none.
    public var scoreThreshold: Float?
    /// Only these label names (mutually exclusive with `categoryDenylist`).
    public var categoryAllowlist: [String]
    /// Not these label names.
    public var categoryDenylist: [String]

    public init(displayNamesLocale: String? = "en", maxResults: Int = -1, scoreThreshold: Float? = nil,
                categoryAllowlist: [String] = [], categoryDenylist: [String] = []) {
        self.displayNamesLocale = displayNamesLocale
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
    }
}
