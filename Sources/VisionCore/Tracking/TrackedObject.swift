/// A confirmed track in one frame: its stable identifier and the detection it matched.
package struct TrackedObject: Equatable, Sendable {
    /// Never reused: a new object (or one that left the frame and came back) gets a new one.
    package let trackingID: Int
    /// The matched detection's box.
    package let box: TrackBox
    /// The matched detection's score.
    package let score: Double
    /// Index of the matched detection in the array given to
    /// ``ObjectTracker/update(_:timestampMs:frameWidth:frameHeight:)``.
    package let detectionIndex: Int
    /// Frames this track has been matched in (1 on the frame it was first seen).
    package let hits: Int
}
