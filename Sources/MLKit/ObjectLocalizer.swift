import Foundation
import Imaging
import VisionCore

/// ML Kit's class-agnostic object localizer, made of a detector model: every class is merged and
/// overlapping boxes are suppressed whatever their class (IoU above ``suppressionIoU``), so each
/// object gets one box with its best score.
final class ObjectLocalizer: Sendable {
    let engine: ObjectDetectionEngine
    /// Boxes overlapping a better one by more than this IoU are dropped (class-agnostic NMS).
    static let suppressionIoU = 0.5
    /// The file name of the localizer shipped with the package.
    static let bundledModelName = "ssd_mobilenet_v1_coco_quant_metadata"

    /// The path of the shipped localizer model (SSD MobileNet v1 COCO, quantized), if present.
    static var bundledModelPath: String? {
        Bundle.module.path(forResource: bundledModelName, ofType: "tflite")
    }

    /// Loads `path` (nil: the shipped model), keeping boxes scored at least `minimumScore`.
    init(path: String?, minimumScore: Float, threads: Int) throws {
        let failure = "Failed to initialize detector."
        guard let file = path ?? Self.bundledModelPath else {
            throw MLKitError(.notFound, "\(failure) The built-in object localizer (\(Self.bundledModelName).tflite) is missing from the package's resources; set localizerModel to a detector model.")
        }
        do {
            let resources = try ModelResources(path: file)
            engine = try ObjectDetectionEngine(resources: resources,
                                               options: DetectorOptions(displayNamesLocale: "en", maxResults: -1, scoreThreshold: minimumScore),
                                               threads: threads)
        } catch let e as VisionCoreError {
            throw MLKitError(e, prefix: "\(failure) Localizer model \(file):")
        }
    }

    /// The objects in `bitmap` (upright), best first, in its pixels.
    func localize(_ bitmap: Bitmap) throws -> [LocalizedObject] {
        let boxes: [DetectionBox]
        do { boxes = try engine.detect(bitmap) } catch let e as VisionCoreError { throw MLKitError(e) }
        let candidates = boxes.compactMap { b -> LocalizedObject? in
            guard let score = b.categories.map(\.score).max(), score.isFinite, b.width > 0, b.height > 0 else { return nil }
            return LocalizedObject(box: TrackBox(x: Double(b.x), y: Double(b.y), width: Double(b.width), height: Double(b.height)), score: score)
        }
        return Self.suppress(candidates)
    }

    /// Class-agnostic non-maximum suppression, best score first (ties keep the model's order).
    static func suppress(_ candidates: [LocalizedObject]) -> [LocalizedObject] {
        let ordered = candidates.enumerated().sorted { $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset }
        var kept: [LocalizedObject] = []
        for (_, c) in ordered where !kept.contains(where: { $0.box.iou(c.box) > suppressionIoU }) {
            kept.append(c)
        }
        return kept
    }
}
