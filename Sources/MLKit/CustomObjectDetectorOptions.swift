import Foundation
import VisionCore

/// Options of an object detector that classifies objects with a custom image classifier
/// (`MLKCustomObjectDetectorOptions`). The properties after ``maxPerObjectLabelCount`` are Linux
/// extensions; their defaults give ML Kit's behaviour.
public final class CustomObjectDetectorOptions: CommonObjectDetectorOptions {
    /// The image classifier that labels each object.
    public let localModel: LocalModel
    /// Keep labels whose confidence is at least this, in 0…1. nil (default), NaN or out of range:
    /// the threshold in the model's metadata, else 0.
    public var classificationConfidenceThreshold: NSNumber?
    /// At most this many labels per object, best first (default 10; 0 or less means 10).
    public var maxPerObjectLabelCount: Int = 10

    /// The class-agnostic object localizer: any MediaPipe-compatible detector model. nil (default):
    /// the SSD MobileNet v1 COCO model shipped with the package.
    public var localizerModel: LocalModel?
    /// Objects at most, with ``CommonObjectDetectorOptions/shouldEnableMultipleObjects`` (default 5,
    /// ML Kit's cap; raise it for server use). Values below 1 mean 5.
    public var maxObjectCount: Int = 5
    /// Localizer score an object needs to be reported in single-image mode (default 0.5; stream
    /// mode's thresholds are in ``trackerOptions``).
    public var localizerScoreThreshold: Float = 0.5
    /// Stream mode's tracker parameters (documented defaults).
    public var trackerOptions = ObjectTrackerOptions()
    /// Stream mode reclassifies a tracked object after this many frames (default 30), or sooner
    /// when its box has changed (IoU with the box last classified below ``reclassifyIoU``).
    public var reclassifyIntervalFrames: Int = 30
    /// See ``reclassifyIntervalFrames`` (default 0.6).
    public var reclassifyIoU: Double = 0.6
    /// The classifier sees each object's box grown by this fraction of its width and height on each
    /// side, clipped to the picture (default 0.1).
    public var classificationMargin: Double = 0.1
    /// CPU threads for each model (default 1, 1…256).
    public var numThreads: Int = 1

    /// Options for `localModel`.
    public init(localModel: LocalModel) {
        self.localModel = localModel
    }

    /// ML Kit's rules: a threshold outside 0…1 (or NaN) is unset; a label count of 0 or less is 10.
    var resolvedThreshold: Float? { CustomClassifier.threshold(classificationConfidenceThreshold) }
    var resolvedLabelCount: Int { CustomClassifier.count(maxPerObjectLabelCount) }

    /// Objects reported per call.
    var resolvedObjectCount: Int { shouldEnableMultipleObjects ? (maxObjectCount > 0 ? maxObjectCount : 5) : 1 }

    /// The core session's view of these options.
    var sessionOptions: StreamDetectionOptions {
        StreamDetectionOptions(
            mode: detectorMode == .singleImage ? .singleImage : .stream, maxObjects: resolvedObjectCount,
            localizerThreshold: localizerScoreThreshold, reclassifyInterval: reclassifyIntervalFrames,
            reclassifyIoU: reclassifyIoU, classificationMargin: classificationMargin, tracker: trackerOptions.core)
    }

    /// The core session these options describe, with its models loaded (the classifier only when
    /// classification is on); ML Kit's errors, messages starting with `failure`.
    func session(failure: String) throws -> sending StreamDetectionSession {
        let classifier =
            shouldEnableClassification
            ? try CustomClassifier.load(
                localModel, threshold: resolvedThreshold, maxResults: resolvedLabelCount, threads: numThreads,
                failure: failure)
            : nil
        let localizer = try ObjectLocalizer.load(
            path: localizerModel?.path, minimumScore: localizerFloor, threads: numThreads, failure: failure)
        return StreamDetectionSession(options: sessionOptions, localizer: localizer, classifier: classifier)
    }

    /// The lowest localizer score the session needs (stream mode's low-score tracking included).
    var localizerFloor: Float {
        let floor = Float(min(trackerOptions.lowScoreThreshold, Double(localizerScoreThreshold)))
        return floor.isFinite ? max(floor, 0) : 0.15
    }
}
