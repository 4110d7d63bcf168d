import Imaging
import Locking
import TFLiteModel

/// The detector shared by both facades: model checks in MediaPipe's order, preprocessing,
/// inference and post-processing.
public final class ObjectDetectionEngine: Sendable {
    public let inference: ImageInference
    public let postprocessor: DetectionPostprocessor
    /// Timings of the last ``detect(_:orientation:)`` (seconds).
    public var lastTimings: StageTimings { timings.withLock { $0 } }
    private let timings = Locked(StageTimings())

    /// Builds the detector on `resources`, checking in MediaPipe's order: options, subgraphs,
    /// metadata, input tensor, outputs.
    public init(resources: ModelResources, options: DetectorOptions, threads: Int = 1) throws {
        guard options.maxResults != 0 else {
            throw VisionCoreError(.invalidArgument, "Invalid `max_results` option: value must be != 0")
        }
        guard options.categoryAllowlist.isEmpty || options.categoryDenylist.isEmpty else {
            throw VisionCoreError(.invalidArgument, "`category_allowlist` and `category_denylist` are mutually exclusive options.")
        }
        guard resources.file.subgraphs.count == 1 else {
            throw VisionCoreError(
                .invalidArgument,
                "Expected a model with a single subgraph, found \(resources.file.subgraphs.count).")
        }
        guard resources.metadata != nil else {
            throw VisionCoreError(.invalidArgument, "Object detection models require TFLite Model Metadata but none was found")
        }
        let spec = try ImageTensorSpec(resources: resources)
        let post = try DetectionPostprocessor(resources: resources, options: options)
        inference = try ImageInference(resources: resources, spec: spec, threads: threads)
        postprocessor = post
    }

    /// Detects objects in `bitmap` shown with `orientation`; boxes are in the stored pixels, or in a
    /// picture of `size` that `bitmap` holds at a reduced scale.
    public func detect(_ bitmap: Bitmap, orientation: ImageOrientation = .up, size: (width: Int, height: Int)? = nil) throws -> [DetectionBox] {
        try inference.run(bitmap, orientation: orientation, region: .full) { model in
            let t0 = Clock.now()
            let boxes = try postprocessor.process(
                model, imageWidth: size?.width ?? bitmap.width, imageHeight: size?.height ?? bitmap.height, orientation: orientation)
            var stages = inference.lastTimings
            let postprocess = Clock.now() - t0
            stages.postprocess = postprocess
            timings.withLock { $0 = stages }
            return boxes
        }
    }
}
