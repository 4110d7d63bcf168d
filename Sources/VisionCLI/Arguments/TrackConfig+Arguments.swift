import MLKit
import VisionPipeline

/// `track`'s command line.
extension TrackConfig {

    init(_ p: ParsedCommand) throws {
        self.init(modelPath: try p.string(.model).map(ModelZoo.resolve))
        single = p.flag(.single)
        maxObjects = p.int(.maxObjects)
        threshold = p.float(.threshold)
        maxLabels = p.int(.maxLabels)
        localizerPath = try p.string(.localizer).map(ModelZoo.resolve)
        threads = p.int(.threads) ?? 1
        detectionsJSONL = p.string(.detectionsJsonl)
        zones = try ZoneConfig(p)
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
