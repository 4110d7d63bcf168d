import VisionCore

/// Stream mode's tracker parameters (an extension of ML Kit's options; docs/tracking.md explains them).
public struct ObjectTrackerOptions: Equatable, Sendable {
    /// The core tracker's options these stand for.
    var core = TrackerOptions()

    /// ML Kit's defaults.
    public init() {}

    /// Detections at or above this score take part in the first association stage (default 0.35).
    public var highScoreThreshold: Double {
        get { core.highScoreThreshold }
        set { core.highScoreThreshold = newValue }
    }
    /// Detections between this score and `highScoreThreshold` only continue tracks (default 0.1).
    public var lowScoreThreshold: Double {
        get { core.lowScoreThreshold }
        set { core.lowScoreThreshold = newValue }
    }
    /// An unmatched detection starts a track at or above this score (default 0.4).
    public var newTrackThreshold: Double {
        get { core.newTrackThreshold }
        set { core.newTrackThreshold = newValue }
    }
    /// A detection this much inside a better one is a part of it and starts no track (default 0.7; 1.1 disables).
    public var partContainment: Double {
        get { core.partContainment }
        set { core.partContainment = newValue }
    }
    /// A detection covering this much of two or more tracks is a group box, left out (default 0.6).
    public var groupCoverage: Double {
        get { core.groupCoverage }
        set { core.groupCoverage = newValue }
    }
    /// Smallest IoU to match in the first stage (default 0.2).
    public var minimumIoU: Double {
        get { core.minimumIoU }
        set { core.minimumIoU = newValue }
    }
    /// Smallest IoU to match in the low-score stage (default 0.4).
    public var minimumLowScoreIoU: Double {
        get { core.minimumLowScoreIoU }
        set { core.minimumLowScoreIoU = newValue }
    }
    /// Weight of the colour-histogram distance in the matching cost (default 0.35; 0 disables).
    public var appearanceWeight: Double {
        get { core.appearanceWeight }
        set { core.appearanceWeight = newValue }
    }
    /// Weight of the size change in the matching cost (default 0.15; 0 disables).
    public var sizeWeight: Double {
        get { core.sizeWeight }
        set { core.sizeWeight = newValue }
    }
    /// Frames a new track must be matched in a row before it gets an ID (default 3).
    public var confirmationHits: Int {
        get { core.confirmationHits }
        set { core.confirmationHits = newValue }
    }
    /// How long a lost track is kept on its motion, in milliseconds (default 1000).
    public var maxCoastMs: Int {
        get { core.maxCoastMs }
        set { core.maxCoastMs = newValue }
    }
    /// A track less than this much inside the frame has left it (default 0.5).
    public var exitVisibleFraction: Double {
        get { core.exitVisibleFraction }
        set { core.exitVisibleFraction = newValue }
    }
    /// Frames further apart than this (milliseconds) reset the tracker (default 1000).
    public var resetGapMs: Int {
        get { core.resetGapMs }
        set { core.resetGapMs = newValue }
    }
}
