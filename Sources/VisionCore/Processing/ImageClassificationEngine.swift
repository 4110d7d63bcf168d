import Imaging
import Locking

/// The image classifier shared by both facades: input checks, then option and output checks (in
/// MediaPipe's order), preprocessing with an optional region of interest, inference, post-processing.
package final class ImageClassificationEngine: Sendable {
    package let inference: ImageInference
    package let postprocessor: ClassificationPostprocessor
    /// Timings of the last ``classify(_:orientation:region:)`` (seconds).
    package var lastTimings: StageTimings { timings.withLock { $0 } }
    private let timings = Locked(StageTimings())

    package init(
        resources: ModelResources, options: ClassifierOptions, threads: Int = 1,
        allowPerChannelNormalization: Bool = false
    ) throws {
        let spec = try ImageTensorSpec(resources: resources, allowPerChannelNormalization: allowPerChannelNormalization)
        let post = try ClassificationPostprocessor(resources: resources, options: options)
        inference = try ImageInference(resources: resources, spec: spec, threads: threads)
        postprocessor = post
    }

    /// Classifies `region` (normalized, in the stored picture) of `bitmap` shown with `orientation`.
    package func classify(
        _ bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .full
    ) throws -> [HeadClassification] {
        try inference.run(bitmap, orientation: orientation, region: region) { model in
            let t0 = Clock.now()
            let heads = try postprocessor.process(model)
            var stages = inference.lastTimings
            let postprocess = Clock.now() - t0
            stages.postprocess = postprocess
            timings.withLock { $0 = stages }
            return heads
        }
    }
}
