/// How a YOLO detector's output is decoded (an extension: MediaPipe has no YOLO decoder). The
/// defaults are Ultralytics' `predict` defaults.
package struct YOLODecoding: Equatable, Sendable {
    /// Box coordinates in the model's output.
    package enum BoxUnits: String, Equatable, Sendable {
        /// Fractions of the input size (Ultralytics' `.tflite` detection heads).
        case normalized
        /// Input pixels.
        case pixels
    }

    /// Forces the output layout when the shape rules cannot tell it (nil: decided from the model).
    package var head: YOLOHeadLayout.Override?
    /// Suppress overlapping boxes whatever their class (Ultralytics' `agnostic_nms`); by default a
    /// box only suppresses boxes of its own class.
    package var classAgnostic: Bool
    /// Boxes overlapping a better one by more than this IoU are suppressed (Ultralytics' `iou`).
    package var iouThreshold: Float
    /// At most this many boxes survive suppression (Ultralytics' `max_det`), before `maxResults`.
    package var maxDetections: Int
    /// The output's box units (nil: Ultralytics' metadata, else read from the values — normalized
    /// when no coordinate exceeds 2).
    package var boxUnits: BoxUnits?

    /// The score threshold when the caller gives none: Ultralytics' `conf`.
    package static let defaultScoreThreshold: Float = 0.25

    package init(
        head: YOLOHeadLayout.Override? = nil, classAgnostic: Bool = false, iouThreshold: Float = 0.7,
        maxDetections: Int = 300,
        boxUnits: BoxUnits? = nil
    ) {
        self.head = head
        self.classAgnostic = classAgnostic
        self.iouThreshold = iouThreshold
        self.maxDetections = maxDetections
        self.boxUnits = boxUnits
    }
}
