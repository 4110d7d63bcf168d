import Foundation
import VisionCore

/// ML Kit's custom-model contract, shared by the image labeler and the object detector's
/// per-object classification: one output of [1, N] or [1, 1, 1, N], uint8 input or float input
/// with normalization metadata, label texts in the metadata.
enum CustomClassifier {
    /// ML Kit's threshold rule: a value outside 0…1 (or NaN) is treated as unset.
    static func threshold(_ value: NSNumber?) -> Float? {
        guard let v = value?.floatValue, v >= 0, v <= 1 else { return nil }
        return v
    }

    /// ML Kit's count rule: 0 or less means 10.
    static func count(_ value: Int) -> Int { value > 0 ? value : 10 }

    /// Loads `model` as a classifier keeping labels ≥ `threshold` (nil → the metadata's, else 0),
    /// at most `maxResults`. Errors are ``MLKitError``s whose messages start with `failure`.
    static func load(
        _ model: LocalModel, threshold: Float?, maxResults: Int, threads: Int, failure: String
    ) throws -> ImageClassificationEngine {
        guard (1...256).contains(threads) else {
            throw MLKitError(.invalidArgument, "numThreads must be between 1 and 256, got \(threads).")
        }
        do {
            let resources = try ModelResources(path: model.path)
            let outputs = resources.file.subgraphs[0].outputTensors
            guard outputs.count == 1 else {
                throw MLKitError(
                    .invalidArgument,
                    "\(failure) The model has \(outputs.count) output tensors; a custom ML Kit model is an image "
                        + "classifier with exactly 1 (object detectors cannot be used here)."
                )
            }
            let shape = outputs[0].shape
            guard
                (shape.count == 2 && shape[0] == 1)
                    || (shape.count == 4 && shape[0] == 1 && shape[1] == 1 && shape[2] == 1)
            else {
                throw MLKitError(
                    .invalidArgument,
                    "\(failure) Unexpected number of dimensions for output index 0: got \(shape.count)D, expected "
                        + "either 2D (BxN with B=1) or 4D (BxHxWxN with B=1, W=1, H=1)."
                )
            }
            var result = ClassifierOptions(displayNamesLocale: "en", maxResults: maxResults, scoreThreshold: threshold)
            result.fallbackScoreThreshold = 0
            let engine = try ImageClassificationEngine(resources: resources, options: result, threads: threads)
            guard engine.postprocessor.heads.first?.rules.labels != nil else {
                let core = VisionCoreError(
                    .invalidArgument,
                    "The model has no labels in its metadata, and ML Kit takes label texts from there: add a label "
                        + "file "
                        + "(TENSOR_AXIS_LABELS) to the output tensor's metadata.",
                    condition: .labelsMissing)
                throw MLKitError(core, prefix: failure)
            }
            return engine
        } catch let e as VisionCoreError {
            throw MLKitError(e, prefix: failure)
        }
    }
}
