import VisionAnalytics
import VisionCore

/// What a task produced for one picture or frame: the result fields of its record (named as the
/// API's result types name them), the seeds' text format, the boxes to draw and the names to count.
package struct TaskRecord {
    /// A box to draw on the picture as shown: pixels, its label, and a colour index (the class, or
    /// the track ID so that an object keeps its colour).
    package struct Mark {
        package var x: Int, y: Int, width: Int, height: Int
        package var label: String
        package var color: Int

        package init(x: Int, y: Int, width: Int, height: Int, label: String, color: Int) {
            (self.x, self.y, self.width, self.height, self.label, self.color) = (x, y, width, height, label, color)
        }
    }

    /// A line or zone to draw under the boxes (pixels of the picture as shown), with its caption
    /// and a colour index (``Canvas/Color/overlay``).
    package enum Overlay {
        case line(from: Point, to: Point, label: String, color: Int)
        case polygon([Point], label: String, color: Int)
        /// The point that places an object.
        case anchor(Point)
    }

    /// A record of `fields`, written as `text` in the seeds' format; nothing to draw or count yet.
    package init(fields: [(String, JSONValue)], text: String) {
        self.fields = fields
        self.text = text
    }

    /// The result fields (`detections`, `classifications`, `labels` or `objects`).
    package var fields: [(String, JSONValue)]
    /// The result in the seeds' text format.
    package var text: String
    /// Boxes to draw.
    package var marks: [Mark] = []
    /// A caption to draw (the top classification) when there are no boxes.
    package var caption: String?
    /// The class names found (one per detection, or the top label), for the report's counts.
    package var classes: [String] = []
    /// For tracked objects, each class entry's tracking ID (nil: not tracked), so that the report
    /// counts an object once.
    package var identities: [Int?] = []
    /// Lines and zones to draw.
    package var overlay: [Overlay] = []
    /// For `track` with lines or zones, on a video's end: the video's summary (JSON and text lines).
    package var zoneSummary: (json: JSONValue, lines: [String])?
    /// Preprocessing, inference and post-processing seconds, when the task measures them.
    package var stages: StageTimings?
}
