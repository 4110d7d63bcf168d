import Imaging

/// The post-processing a detector gets: MediaPipe's (SSD outputs described by TFLite metadata) or
/// a YOLO decoder (Ultralytics' heads and end-to-end outputs).
package enum DetectionHead: Sendable {
    /// MediaPipe's SSD outputs (in-model NMS, or raw boxes and scores with anchors).
    case mediaPipe(DetectionPostprocessor)
    /// A YOLO detection head or end-to-end output.
    case yolo(YOLOPostprocessor)

    /// The detections in `model`'s outputs for a `bitmapWidth`×`bitmapHeight` bitmap shown with
    /// `orientation`, in the stored pixels of a picture of `imageWidth`×`imageHeight`.
    package func process(
        _ model: ModelOutputs, bitmapWidth: Int, bitmapHeight: Int, imageWidth: Int, imageHeight: Int, orientation: ImageOrientation
    ) throws -> [DetectionBox] {
        switch self {
        case .mediaPipe(let p): return try p.process(model, imageWidth: imageWidth, imageHeight: imageHeight, orientation: orientation)
        case .yolo(let p):
            return try p.process(
                model, bitmapWidth: bitmapWidth, bitmapHeight: bitmapHeight, imageWidth: imageWidth, imageHeight: imageHeight,
                orientation: orientation)
        }
    }
}
