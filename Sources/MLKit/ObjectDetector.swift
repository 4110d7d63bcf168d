import Foundation
import Imaging
import VisionCore

/// The completion of ``ObjectDetector/process(_:completion:)``: objects, or the error.
public typealias ObjectDetectionCallback = ([Object]?, Error?) -> Void

/// Detects, tracks and classifies objects (`MLKObjectDetector` with custom-model options).
///
/// A class-agnostic localizer (a detector model, every class merged) finds objects; single-image
/// mode returns the most prominent one (or up to 5 with multiple objects); stream mode tracks them
/// across frames (``ObjectTracker``) and gives each a tracking ID; classification labels each object
/// with the custom classifier run on its box (the custom model is loaded and checked when
/// classification is on). See docs/compatibility.md for the rules chosen where
/// ML Kit does not document its own.
// @unchecked Sendable: every `var` below is read and written only under `stateLock` (the stream
// state: frame count, label cache, shown IDs, the tracker's tracks) or `lock` (the completion queue);
// the rest is immutable, and the models serialize their own runs.
public final class ObjectDetector: NSObject, @unchecked Sendable {
    private struct Models {
        let localizer: ObjectLocalizer
        /// nil when classification is off (the custom model is then not loaded).
        let classifier: ImageClassificationEngine?
    }

    /// Labels of a tracked object and when they were computed.
    private struct CachedLabels {
        var labels: [ObjectLabel]
        var box: TrackBox
        var frame: Int
    }

    private let models: Models?
    /// Why the models could not be loaded, if they could not (an extension: iOS reports it at the
    /// first call). Every call then fails with this error.
    public let modelError: Error?
    private let mode: ObjectDetectorMode
    private let maxObjects: Int
    private let localizerThreshold: Float
    private let reclassifyInterval: Int
    private let reclassifyIoU: Double
    private let margin: Double
    private let appearance: Bool
    private let tracker: ObjectTracker
    private let work = DispatchQueue(label: "com.google.mlkit.objectDetector")
    private let lock = NSLock()
    private let stateLock = NSLock()
    private var queue: DispatchQueue = .main
    private var frameCount = 0
    private var labelCache: [Int: CachedLabels] = [:]
    private var shownIDs: Set<Int> = []
    private var mainID: Int?
    private var localized: [LocalizedObject] = []
    private var classifications = 0
    private let started = DispatchTime.now().uptimeNanoseconds

    /// Where ``process(_:completion:)`` calls its completion: the main queue by default, as on iOS
    /// (an extension lets a Linux program without a main run loop name another).
    public var completionQueue: DispatchQueue {
        get { lock.lock(); defer { lock.unlock() }; return queue }
        set { lock.lock(); queue = newValue; lock.unlock() }
    }

    /// A detector for `options` (read once). Never fails: models that cannot be used make every
    /// call fail with ``modelError``.
    public static func objectDetector(options: CustomObjectDetectorOptions) -> ObjectDetector {
        ObjectDetector(options: options)
    }

    static let failure = "Failed to initialize detector."

    private init(options: CustomObjectDetectorOptions) {
        mode = options.detectorMode
        maxObjects = options.resolvedObjectCount
        localizerThreshold = options.localizerScoreThreshold.isFinite ? options.localizerScoreThreshold : 0.5
        reclassifyInterval = max(1, options.reclassifyIntervalFrames)
        reclassifyIoU = options.reclassifyIoU.isFinite ? options.reclassifyIoU : 0.6
        margin = options.classificationMargin.isFinite ? min(max(options.classificationMargin, 0), 1) : 0.1
        appearance = options.trackerOptions.appearanceWeight > 0
        tracker = ObjectTracker(options: options.trackerOptions)
        do {
            let classifier = options.shouldEnableClassification
                ? try CustomClassifier.load(options.localModel, threshold: options.resolvedThreshold,
                                            maxResults: options.resolvedLabelCount, threads: options.numThreads, failure: Self.failure)
                : nil
            let floor = Float(min(options.trackerOptions.lowScoreThreshold, Double(options.localizerScoreThreshold)))
            let localizer = try ObjectLocalizer(path: options.localizerModel?.path,
                                                minimumScore: floor.isFinite ? max(floor, 0) : 0.15,
                                                threads: options.numThreads)
            models = Models(localizer: localizer, classifier: classifier)
            modelError = nil
        } catch {
            models = nil
            modelError = error
        }
    }

    /// The objects in `image` (synchronous; any thread; calls are serialized).
    public func results(in image: VisionImage) throws -> [Object] { try results(of: image.contents) }

    func results(of image: VisionImage.Contents) throws -> [Object] {
        guard let models else { throw modelError ?? MLKitError(.internalError, Self.failure) }
        let upright = try image.uprightPixels()
        stateLock.lock()
        defer { stateLock.unlock() }
        frameCount += 1
        let candidates = try models.localizer.localize(upright)
        let W = Double(upright.width), H = Double(upright.height)
        var chosen: [(box: TrackBox, score: Float, id: Int?)] = []
        if mode == .singleImage {
            let confident = candidates.filter { $0.score >= localizerThreshold }
            if maxObjects == 1 {
                if let best = confident.max(by: { Self.prominence($0.box, $0.score, W, H) < Self.prominence($1.box, $1.score, W, H) }) {
                    chosen = [(best.box, best.score, nil)]
                }
            } else {
                chosen = confident.prefix(maxObjects).map { ($0.box, $0.score, nil) }
            }
        } else {
            let timestamp = image.resolvedTimestampMs ?? Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
            let detections = candidates.map {
                TrackerDetection(box: $0.box, score: Double($0.score),
                                 appearance: appearance ? AppearanceSignature.compute(upright, box: $0.box) : nil)
            }
            let tracked = tracker.update(detections, timestampMs: timestamp, frameWidth: upright.width, frameHeight: upright.height)
            var picked: [TrackedObject]
            if maxObjects == 1 {
                if let kept = tracked.first(where: { $0.trackingID == mainID }) {
                    picked = [kept]
                } else if let best = tracked.max(by: { Self.prominence($0.box, Float($0.score), W, H) < Self.prominence($1.box, Float($1.score), W, H) }) {
                    picked = [best]
                } else {
                    picked = []
                }
                mainID = picked.first?.trackingID ?? mainID
            } else {
                // Objects already shown keep their place under the cap; then the best scores.
                picked = tracked.sorted {
                    let a = shownIDs.contains($0.trackingID), b = shownIDs.contains($1.trackingID)
                    return a != b ? a : ($0.score != $1.score ? $0.score > $1.score : $0.trackingID < $1.trackingID)
                }
                picked = Array(picked.prefix(maxObjects)).sorted { $0.trackingID < $1.trackingID }
            }
            shownIDs = Set(picked.map(\.trackingID))
            chosen = picked.map { ($0.box, Float($0.score), $0.trackingID) }
            let live = Set(tracked.map(\.trackingID))
            labelCache = labelCache.filter { live.contains($0.key) || frameCount - $0.value.frame < 2 * reclassifyInterval }
        }
        let orientation = image.buffer != nil ? image.orientation : .up
        localized = candidates.map { LocalizedObject(box: Self.storedBox($0.box, orientation, W, H), score: $0.score) }
        var objects: [Object] = []
        for c in chosen {
            let labels = try models.classifier.map { try labelsFor(c.box, id: c.id, in: upright, $0) } ?? []
            let b = Self.storedBox(c.box, orientation, W, H)
            objects.append(Object(frame: CGRect(x: b.x, y: b.y, width: b.width, height: b.height),
                                  trackingID: c.id.map { NSNumber(value: $0) }, labels: labels))
        }
        return objects
    }

    /// Labels for an object: classified now, or (stream mode) the track's labels while its box has
    /// not changed much and fewer than `reclassifyIntervalFrames` frames have passed.
    private func labelsFor(_ box: TrackBox, id: Int?, in picture: Bitmap, _ classifier: ImageClassificationEngine) throws -> [ObjectLabel] {
        if let id, let cached = labelCache[id], frameCount - cached.frame < reclassifyInterval, cached.box.iou(box) >= reclassifyIoU {
            return cached.labels
        }
        let W = Double(picture.width), H = Double(picture.height)
        let grown = TrackBox(x: box.x - box.width * margin, y: box.y - box.height * margin,
                             width: box.width * (1 + 2 * margin), height: box.height * (1 + 2 * margin)).clipped(width: W, height: H)
        guard grown.width >= 1, grown.height >= 1 else { return [] }
        let region = NormalizedRect(x: grown.x / W, y: grown.y / H, width: grown.width / W, height: grown.height / H)
        let heads: [HeadClassification]
        do { heads = try classifier.classify(picture, region: region) } catch let e as VisionCoreError { throw MLKitError(e) }
        classifications += 1
        let labels = (heads.first?.categories ?? []).map { ObjectLabel(text: $0.categoryName ?? "", confidence: $0.score, index: $0.index) }
        if let id { labelCache[id] = CachedLabels(labels: labels, box: box, frame: frameCount) }
        return labels
    }

    /// Detects objects in `image` on a queue of the detector's and calls `completion` on
    /// ``completionQueue`` with the objects or the error.
    public func process(_ image: VisionImage, completion: @escaping ObjectDetectionCallback) {
        let contents = image.contents
        CompletionBox(completion).run(on: work, deliver: completionQueue) { [self] in try results(of: contents) }
    }

    /// The objects in `image`, awaited: the form iOS imports `process(_:completion:)` as in Swift
    /// (`let objects = try await objectDetector.process(image)`). Runs on the detector's queue; the
    /// image is read when the call is made. Callable from any actor or task.
    nonisolated(nonsending) public func process(_ image: VisionImage) async throws -> [Object] {
        let contents = image.contents
        return try await CompletionBox<[Object]>.value(on: work) { [self] in try results(of: contents) }
    }

    /// Forgets every tracked object (stream mode; IDs are not reused afterwards). An extension.
    public func reset() {
        stateLock.lock()
        tracker.reset()
        labelCache.removeAll()
        shownIDs.removeAll()
        mainID = nil
        stateLock.unlock()
    }

    /// Every box the localizer found in the last call, before selection and tracking (an extension).
    public var lastLocalizedObjects: [LocalizedObject] { stateLock.lock(); defer { stateLock.unlock() }; return localized }

    /// How many times the classifier has run (an extension, to check stream mode's label reuse).
    public var classificationCount: Int { stateLock.lock(); defer { stateLock.unlock() }; return classifications }

    /// The path of the localizer model shipped with the package (an extension).
    public static var bundledLocalizerPath: String? { ObjectLocalizer.bundledModelPath }

    /// The single-object rule: score × area fraction × closeness to the centre, where closeness
    /// is 1 − ½ × (distance from the box centre to the picture centre ÷ half the diagonal).
    static func prominence(_ box: TrackBox, _ score: Float, _ width: Double, _ height: Double) -> Double {
        let dx = box.centerX - width / 2, dy = box.centerY - height / 2
        let halfDiagonal = max((width * width + height * height).squareRoot() / 2, 1)
        let closeness = 1 - 0.5 * min((dx * dx + dy * dy).squareRoot() / halfDiagonal, 1)
        return Double(score) * (box.area / max(width * height, 1)) * closeness
    }

    /// A box in the upright picture (`width`×`height`) mapped to the stored pixels of a picture
    /// shown with `orientation` (the preprocessor's own upright-to-stored mapping).
    static func storedBox(_ box: TrackBox, _ orientation: UIImage.Orientation, _ width: Double, _ height: Double) -> TrackBox {
        guard orientation != .up else { return box }
        let (sw, sh) = orientation.swapsDimensions ? (height, width) : (width, height)
        let mapping = ImagePreprocessor.mapping(width: Int(sw), height: Int(sh), orientation: orientation, roi: .full, dstWidth: 1, dstHeight: 1)
        let a = mapping.source(x: box.x / width, y: box.y / height)
        let b = mapping.source(x: (box.x + box.width) / width, y: (box.y + box.height) / height)
        return TrackBox(x: min(a.0, b.0), y: min(a.1, b.1), width: abs(a.0 - b.0), height: abs(a.1 - b.1))
    }
}
