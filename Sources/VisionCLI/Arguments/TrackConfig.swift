import MLKit

/// `track`'s options, parsed once (ML Kit's object detector and its tracker).
struct TrackConfig: Sendable {
    /// The classifier for the objects' labels (nil: no labels).
    var modelPath: String?
    var single = false
    var maxObjects: Int?
    var threshold: Float?
    var maxLabels: Int?
    var localizerPath: String?
    var threads = 1
    /// Also write the localizer's raw boxes per frame here.
    var detectionsJSONL: String?
    var tracker = ObjectTrackerOptions()
    /// Lines and zones to count on.
    var zones = ZoneArguments()

    /// The defaults, with `modelPath` as the classifier (nil: no labels).
    init(modelPath: String?) { self.modelPath = modelPath }

    init(_ p: ParsedCommand) throws {
        modelPath = try p.string(.model).map(ModelZoo.resolve)
        single = p.flag(.single)
        maxObjects = p.int(.maxObjects)
        threshold = p.float(.threshold)
        maxLabels = p.int(.maxLabels)
        localizerPath = try p.string(.localizer).map(ModelZoo.resolve)
        threads = p.int(.threads) ?? 1
        detectionsJSONL = p.string(.detectionsJsonl)
        zones = try ZoneArguments(p)
        tracker.highScoreThreshold = p.double(.trackHigh) ?? tracker.highScoreThreshold
        tracker.lowScoreThreshold = p.double(.trackLow) ?? tracker.lowScoreThreshold
        tracker.newTrackThreshold = p.double(.trackNew) ?? tracker.newTrackThreshold
        tracker.minimumIoU = p.double(.trackIou) ?? tracker.minimumIoU
        tracker.appearanceWeight = p.double(.trackAppearance) ?? tracker.appearanceWeight
        tracker.sizeWeight = p.double(.trackSize) ?? tracker.sizeWeight
        tracker.groupCoverage = p.double(.trackGroup) ?? tracker.groupCoverage
        tracker.partContainment = p.double(.trackPart) ?? tracker.partContainment
        tracker.confirmationHits = p.int(.trackConfirm) ?? tracker.confirmationHits
        tracker.maxCoastMs = p.int(.trackCoastMs) ?? tracker.maxCoastMs
    }
}
