import Foundation
import VisionCore

/// Options of an ``ObjectDetector`` (`MPPObjectDetectorOptions`): running mode, result filtering
/// (``VisionTaskOptions``) and the live-stream delegate.
public final class ObjectDetectorOptions: VisionTaskOptions {
    /// Receives results in live-stream mode (required then, refused otherwise). Held weakly.
    public weak var objectDetectorLiveStreamDelegate: (any ObjectDetectorLiveStreamDelegate)?
    /// How YOLO models are decoded (an extension: head override, class-agnostic NMS, IoU threshold,
    /// maximum detections, box units). Ignored for MediaPipe's SSD models.
    public var yolo = YOLOOptions()

    /// Default options: image mode, all results, threshold 0, no lists.
    public required init() {}

    /// An independent copy, the delegate included (still held weakly).
    public override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone)
        (c as? ObjectDetectorOptions)?.objectDetectorLiveStreamDelegate = objectDetectorLiveStreamDelegate
        (c as? ObjectDetectorOptions)?.yolo = yolo
        return c
    }
}
