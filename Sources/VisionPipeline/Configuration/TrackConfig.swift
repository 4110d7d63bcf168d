import MLKit

/// `track`'s options, parsed once (ML Kit's object detector and its tracker).
package struct TrackConfig: Sendable {
    /// The classifier for the objects' labels (nil: no labels).
    package var modelPath: String?
    package var single = false
    package var maxObjects: Int?
    package var threshold: Float?
    package var maxLabels: Int?
    package var localizerPath: String?
    package var threads = 1
    /// Also write the localizer's raw boxes per frame here.
    package var detectionsJSONL: String?
    package var tracker = ObjectTrackerOptions()
    /// Lines and zones to count on.
    package var zones = ZoneConfig()

    /// The defaults, with `modelPath` as the classifier (nil: no labels).
    package init(modelPath: String?) { self.modelPath = modelPath }
}
