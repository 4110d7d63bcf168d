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
        threads = try p.value(.threads, as: Int.self)
        detectionsJSONL = p.string(.detectionsJsonl)
        zones = try ZoneConfig(p)
        tracker.highScoreThreshold = try p.value(.trackHigh, as: Double.self)
        tracker.lowScoreThreshold = try p.value(.trackLow, as: Double.self)
        tracker.newTrackThreshold = try p.value(.trackNew, as: Double.self)
        tracker.minimumIoU = try p.value(.trackIou, as: Double.self)
        tracker.appearanceWeight = try p.value(.trackAppearance, as: Double.self)
        tracker.sizeWeight = try p.value(.trackSize, as: Double.self)
        tracker.groupCoverage = try p.value(.trackGroup, as: Double.self)
        tracker.partContainment = try p.value(.trackPart, as: Double.self)
        tracker.confirmationHits = try p.value(.trackConfirm, as: Int.self)
        tracker.maxCoastMs = try p.value(.trackCoastMs, as: Int.self)
    }
}
