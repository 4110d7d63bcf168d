import Foundation
import VisionCore

/// ML Kit's class-agnostic localizer: a detector model (the shipped SSD MobileNet v1 COCO by
/// default) loaded as the core's ``ClassAgnosticLocalizer``, with ML Kit's errors.
enum ObjectLocalizer {
    /// The file name of the localizer shipped with the package.
    static let bundledModelName = "ssd_mobilenet_v1_coco_quant_metadata"

    /// The path of the shipped localizer model (SSD MobileNet v1 COCO, quantized), if present.
    static var bundledModelPath: String? {
        Bundle.module.path(forResource: bundledModelName, ofType: "tflite")
    }

    /// Loads `path` (nil: the shipped model), keeping boxes scored at least `minimumScore`.
    static func load(path: String?, minimumScore: Float, threads: Int, failure: String) throws -> ClassAgnosticLocalizer
    {
        guard let file = path ?? bundledModelPath else {
            throw MLKitError(
                .notFound,
                "\(failure) The built-in object localizer (\(bundledModelName).tflite) is missing from the package's "
                    + "resources; set localizerModel to a detector model."
            )
        }
        do {
            let options = DetectorOptions(displayNamesLocale: "en", maxResults: -1, scoreThreshold: minimumScore)
            return ClassAgnosticLocalizer(
                engine: try ObjectDetectionEngine(
                    resources: try ModelResources(path: file), options: options, threads: threads))
        } catch let e as VisionCoreError {
            throw MLKitError(e, prefix: "\(failure) Localizer model \(file):")
        }
    }
}
