/// The tracker's parameters, with documented defaults (see docs/tracking.md).
package struct TrackerOptions: Equatable, Sendable {
    /// Detections at or above this score take part in the first association stage (default 0.35).
    package var highScoreThreshold: Double = 0.35
    /// Detections between this score and ``highScoreThreshold`` only continue tracks already
    /// followed, in the second stage (default 0.1); lower ones are ignored.
    package var lowScoreThreshold: Double = 0.1
    /// An unmatched detection starts a track at or above this score (default 0.4).
    package var newTrackThreshold: Double = 0.4
    /// A detection with at least this fraction of its area inside a better-scored detection is
    /// taken for a part of that object and starts no track (default 0.7; 1.1 disables).
    package var partContainment: Double = 0.7
    /// A detection holding at least this fraction of each of two or more followed tracks' predicted
    /// boxes is a group box (two objects in one box) and is left out (default 0.6; above 1 disables).
    package var groupCoverage: Double = 0.6
    /// Smallest IoU between a track's predicted box and a detection in the first stage (default 0.2).
    package var minimumIoU: Double = 0.2
    /// Smallest IoU in the second (low-score) stage (default 0.4).
    package var minimumLowScoreIoU: Double = 0.4
    /// Weight of appearance (colour histogram distance) against 1 − IoU in the first stage's cost
    /// (default 0.35; 0 disables appearance).
    package var appearanceWeight: Double = 0.35
    /// Weight of the size change (|log(area ratio)| between a detection and the prediction) in the
    /// association cost (default 0.15; 0 disables).
    package var sizeWeight: Double = 0.15
    /// Frames a new track must be matched in, in a row, before it gets an ID (default 3).
    package var confirmationHits: Int = 3
    /// How long a confirmed track coasts on its motion model without detections (occlusions),
    /// in milliseconds (default 1000).
    package var maxCoastMs: Int = 1000
    /// A track whose predicted box has less than this fraction inside the frame has left it and
    /// is ended, so an object that comes back gets a new ID (default 0.5).
    package var exitVisibleFraction: Double = 0.5
    /// Frames further apart than this (milliseconds) reset the tracker (default 1000).
    package var resetGapMs: Int = 1000

    package init() {}
}
