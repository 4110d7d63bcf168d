import Imaging
import Locking
import TFLiteModel

/// The detector shared by both facades: model checks in MediaPipe's order, preprocessing,
/// inference and post-processing — MediaPipe's for SSD models described by TFLite metadata, a
/// YOLO decoder with Ultralytics' letterbox for YOLO exports.
package final class ObjectDetectionEngine: Sendable {
    package let inference: ImageInference
    /// How outputs become detections.
    package let head: DetectionHead
    /// Timings of the last ``detect(_:orientation:size:)`` (seconds).
    package var lastTimings: StageTimings { timings.withLock { $0 } }
    private let timings = Locked(StageTimings())

    /// Builds the detector on `resources`, checking in MediaPipe's order: options, subgraphs,
    /// metadata, input tensor, outputs. A model is decoded as YOLO when `yolo.head` forces it, when
    /// it carries Ultralytics' metadata, or when its single output fits a YOLO layout.
    package init(
        resources: ModelResources, options: DetectorOptions, threads: Int = 1, yolo: YOLODecoding = YOLODecoding()
    ) throws {
        try options.validate(maxResultsMessage: "Invalid `max_results` option: value must be != 0")
        guard resources.file.subgraphs.count == 1 else {
            throw VisionCoreError(
                .invalidArgument,
                "Expected a model with a single subgraph, found \(resources.file.subgraphs.count).")
        }
        let (head, input) = try DetectionHead.make(resources: resources, options: options, yolo: yolo)
        self.head = head
        inference = try ImageInference(resources: resources, spec: input, threads: threads)
    }

    /// Detects objects in `bitmap` shown with `orientation`; boxes are in the stored pixels, or in a
    /// picture of `size` that `bitmap` holds at a reduced scale.
    package func detect(
        _ bitmap: Bitmap, orientation: ImageOrientation = .up, size: (width: Int, height: Int)? = nil
    ) throws -> [DetectionBox] {
        try inference.run(bitmap, orientation: orientation, region: .full) { model in
            let t0 = Clock.now()
            let boxes = try head.process(
                model, bitmapWidth: bitmap.width, bitmapHeight: bitmap.height, imageWidth: size?.width ?? bitmap.width,
                imageHeight: size?.height ?? bitmap.height, orientation: orientation)
            var stages = inference.lastTimings
            let postprocess = Clock.now() - t0
            stages.postprocess = postprocess
            timings.withLock { $0 = stages }
            return boxes
        }
    }

    /// Detects objects in a tensor given as the model's input (its exact shape, type and layout: no
    /// decoding or resizing), as in a picture of the input's size shown upright.
    package func detect(tensor: [UInt8]) throws -> [DetectionBox] {
        let width = inference.spec.width, height = inference.spec.height
        return try inference.run(tensor: tensor) { model in
            let t0 = Clock.now()
            let boxes = try head.process(
                model, bitmapWidth: width, bitmapHeight: height, imageWidth: width, imageHeight: height,
                orientation: .up)
            var stages = inference.lastTimings
            stages.postprocess = Clock.now() - t0
            timings.withLock { $0 = stages }
            return boxes
        }
    }
}
