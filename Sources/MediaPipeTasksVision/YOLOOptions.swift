import VisionCore

/// How a YOLO detector's output is decoded (an extension: MediaPipe has no YOLO decoder;
/// ``ObjectDetectorOptions/yolo``). The defaults are Ultralytics' `predict` defaults.
public struct YOLOOptions: Equatable, Sendable {
    /// The output layout, named when the model's shape cannot tell it.
    public enum Head: String, Sendable, CaseIterable {
        /// A detection head `[1, 4 + classes, anchors]` (Ultralytics' `.tflite` exports).
        case channelsFirst = "yolo"
        /// A detection head `[1, anchors, 4 + classes]`.
        case channelsLast = "yolo-transposed"
        /// End-to-end rows `[1, K, 6]`: box, score, class (YOLO26, YOLOv10).
        case endToEnd = "yolo-e2e"
    }

    /// Box coordinates in the model's output.
    public enum BoxUnits: String, Equatable, Sendable {
        /// Fractions of the input size (Ultralytics' `.tflite` detection heads).
        case normalized
        /// Input pixels.
        case pixels
    }

    /// Forces the output layout when the shape rules cannot tell it (nil: decided from the model).
    public var head: Head?
    /// Suppress overlapping boxes whatever their class (Ultralytics' `agnostic_nms`); by default a
    /// box only suppresses boxes of its own class.
    public var classAgnostic: Bool
    /// Boxes overlapping a better one by more than this IoU are suppressed (Ultralytics' `iou`).
    public var iouThreshold: Float
    /// At most this many boxes survive suppression (Ultralytics' `max_det`), before `maxResults`.
    public var maxDetections: Int
    /// The output's box units (nil: Ultralytics' metadata, else read from the values — normalized
    /// when no coordinate exceeds 2).
    public var boxUnits: BoxUnits?

    /// Ultralytics' defaults: layout from the model, class-aware NMS at IoU 0.7, 300 boxes.
    public init(
        head: Head? = nil, classAgnostic: Bool = false, iouThreshold: Float = 0.7, maxDetections: Int = 300,
        boxUnits: BoxUnits? = nil
    ) {
        self.head = head
        self.classAgnostic = classAgnostic
        self.iouThreshold = iouThreshold
        self.maxDetections = maxDetections
        self.boxUnits = boxUnits
    }

    /// The core's decoding rules for these options.
    package var decoding: YOLODecoding {
        let override: YOLOHeadLayout.Override? = head.map {
            switch $0 {
            case .channelsFirst: return .channelsFirst
            case .channelsLast: return .channelsLast
            case .endToEnd: return .endToEnd
            }
        }
        let units: YOLODecoding.BoxUnits? = boxUnits.map { $0 == .normalized ? .normalized : .pixels }
        return YOLODecoding(
            head: override, classAgnostic: classAgnostic, iouThreshold: iouThreshold, maxDetections: maxDetections,
            boxUnits: units)
    }
}
