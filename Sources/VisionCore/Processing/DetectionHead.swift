import Imaging
import TFLiteModel

/// The post-processing a detector gets — MediaPipe's (SSD outputs described by TFLite metadata) or a
/// YOLO decoder (Ultralytics' heads and end-to-end outputs) — and everything that follows from it:
/// which one a model takes and the input it needs (``make(resources:options:yolo:)``: MediaPipe's
/// resize or Ultralytics' letterbox), the JPEG pixels its reference decodes
/// (``preferredJPEG``), and how outputs become boxes
/// (``process(_:bitmapWidth:bitmapHeight:imageWidth:imageHeight:orientation:)``,
/// every output read through ``ModelOutputs``' one dequantizing reader). Callers ask the head; none
/// re-derives it.
package enum DetectionHead: Sendable {
    /// MediaPipe's SSD outputs (in-model NMS, or raw boxes and scores with anchors).
    case mediaPipe(DetectionPostprocessor)
    /// A YOLO detection head or end-to-end output.
    case yolo(YOLOPostprocessor)

    /// The class names the head gives detections, in class order (empty when the model names none).
    package var labelNames: [String] {
        switch self {
        case .mediaPipe(let p): p.rules.labels?.names ?? []
        case .yolo(let p): p.rules.labels?.names ?? []
        }
    }

    /// The head `resources` takes and how a picture is written into its input, checked in MediaPipe's
    /// order (metadata, input tensor, outputs): a YOLO decoder — Ultralytics' letterbox — when
    /// `yolo.head` forces it, when the model carries Ultralytics' metadata (malformed metadata is an
    /// error), or when its single output fits a YOLO layout; else MediaPipe's — its resize and the
    /// metadata's normalization —, which requires TFLite metadata.
    package static func make(
        resources: ModelResources, options: DetectorOptions, yolo: YOLODecoding
    ) throws -> (head: DetectionHead, input: ImageTensorSpec) {
        let ultralytics = try ultralyticsMetadata(resources.file)
        if YOLOHeadLayout.applies(to: resources.file, metadata: ultralytics, override: yolo.head) {
            let head = DetectionHead.yolo(
                try YOLOPostprocessor(resources: resources, metadata: ultralytics, options: options, yolo: yolo))
            return (head, try ImageTensorSpec(letterboxFor: resources))
        }
        guard resources.metadata != nil else {
            var message = "Object detection models require TFLite Model Metadata but none was found"
            var condition = VisionCoreError.Condition.detectorMetadataMissing
            // A single output may be a YOLO head the rules could not tell: say what would fit.
            if resources.file.subgraphs.first?.outputTensors.count == 1 {
                do { _ = try YOLOHeadLayout.resolve(resources.file, metadata: nil) } catch let e as VisionCoreError {
                    message += ". " + e.message
                    if e.condition == .yoloLayoutUnknown { condition = .yoloLayoutUnknown }
                }
            }
            throw VisionCoreError(.invalidArgument, message, condition: condition)
        }
        let input = try ImageTensorSpec(resources: resources)
        return (.mediaPipe(try DetectionPostprocessor(resources: resources, options: options)), input)
    }

    /// Ultralytics' `metadata.json` in `file`, nil when it has none; malformed metadata is refused
    /// (it decides the box units and the class names: guessing instead would change the results).
    package static func ultralyticsMetadata(_ file: ModelFile) throws -> UltralyticsMetadata? {
        do { return try file.ultralyticsMetadata() } catch let e as TFLiteModelError {
            throw VisionCoreError(
                .invalidArgument, "The model's Ultralytics metadata is malformed: \(e.message)", underlying: e)
        }
    }

    /// Whether `file` is a detector at all: a post-processing op, DETECTOR_METADATA or a YOLO output
    /// (what `bench` runs as `detect`).
    package static func isDetector(_ file: ModelFile) -> Bool {
        if ((try? file.detectionPostProcessOptions()) ?? nil) != nil { return true }
        if let ultralytics = try? ultralyticsMetadata(file),
            YOLOHeadLayout.applies(to: file, metadata: ultralytics, override: nil)
        {
            return true
        }
        let custom = (try? file.modelMetadata())??.subgraphs.first?.customMetadata ?? []
        return custom.contains { $0.name == DetectorMetadata.name }
    }

    /// The JPEG pixels this head's reference sees: MediaPipe's decoder for its SSD models, OpenCV's
    /// (libjpeg-turbo's own, `cv2.imread`) for YOLO models, whose reference is Ultralytics' `predict`.
    package var preferredJPEG: JPEGPixels {
        switch self {
        case .mediaPipe: return .mediaPipe
        case .yolo: return .openCV
        }
    }

    /// The detections in `model`'s outputs for a `bitmapWidth`×`bitmapHeight` bitmap shown with
    /// `orientation`, in the stored pixels of a picture of `imageWidth`×`imageHeight`.
    package func process(
        _ model: ModelOutputs, bitmapWidth: Int, bitmapHeight: Int, imageWidth: Int, imageHeight: Int,
        orientation: ImageOrientation
    ) throws -> [DetectionBox] {
        switch self {
        case .mediaPipe(let p):
            return try p.process(model, imageWidth: imageWidth, imageHeight: imageHeight, orientation: orientation)
        case .yolo(let p):
            return try p.process(
                model, bitmapWidth: bitmapWidth, bitmapHeight: bitmapHeight, imageWidth: imageWidth,
                imageHeight: imageHeight,
                orientation: orientation)
        }
    }
}
