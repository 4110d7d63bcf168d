import VisionAnalytics
import VisionCore

/// What a task produced for one picture or frame: the result fields of its record (named as the
/// API's result types name them), the seeds' text format, the boxes to draw and the names to count.
struct TaskRecord {
    /// A box to draw on the picture as shown: pixels, its label, and a colour index (the class, or
    /// the track ID so that an object keeps its colour).
    struct Mark {
        var x: Int, y: Int, width: Int, height: Int
        var label: String
        var color: Int
    }

    /// A line or zone to draw under the boxes (pixels of the picture as shown), with its caption
    /// and a colour index (``Canvas/Color/overlay``).
    enum Overlay {
        case line(from: Point, to: Point, label: String, color: Int)
        case polygon([Point], label: String, color: Int)
        /// The point that places an object.
        case anchor(Point)
    }

    /// The result fields (`detections`, `classifications`, `labels` or `objects`).
    var fields: [(String, JSONValue)]
    /// The result in the seeds' text format.
    var text: String
    /// Boxes to draw.
    var marks: [Mark] = []
    /// A caption to draw (the top classification) when there are no boxes.
    var caption: String?
    /// The class names found (one per detection, or the top label), for the report's counts.
    var classes: [String] = []
    /// For tracked objects, each class entry's tracking ID (nil: not tracked), so that the report
    /// counts an object once.
    var identities: [Int?] = []
    /// Lines and zones to draw.
    var overlay: [Overlay] = []
    /// For `track` with lines or zones, on a video's end: the video's summary (JSON and text lines).
    var zoneSummary: (json: JSONValue, lines: [String])?
    /// Preprocessing, inference and post-processing seconds, when the task measures them.
    var stages: StageTimings?
}
