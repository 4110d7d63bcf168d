import Foundation
import Imaging
import Locking
import VisionCore

/// The completion of ``ObjectDetector/process(_:completion:)``: objects, or the error.
public typealias ObjectDetectionCallback = ([Object]?, Error?) -> Void

/// Detects, tracks and classifies objects (`MLKObjectDetector` with custom-model options), on the
/// core's ``StreamDetectionSession``: a class-agnostic localizer finds objects; single-image mode
/// returns the most prominent one (or up to 5 with multiple objects); stream mode tracks them and
/// gives each a tracking ID; classification labels each object with the custom classifier run on
/// its box. Frames are in the picture as shown for `VisionImage(image:)`, in the stored pixels for
/// `VisionImage(buffer:)`. See docs/compatibility.md for the rules chosen where ML Kit has none.
public final class ObjectDetector: NSObject, Sendable {
    /// The session and the geometry of the last picture (to report ``lastLocalizedObjects``).
    private struct State {
        let session: StreamDetectionSession
        var last: (contents: VisionImage.Contents, width: Int, height: Int)?
    }

    private let state: Locked<State>?
    /// Why the models could not be loaded, if they could not (an extension: iOS reports it at the
    /// first call). Every call then fails with this error.
    public let modelError: Error?
    private let work = DispatchQueue(label: "com.google.mlkit.objectDetector")
    private let queue = Locked<DispatchQueue>(.main)

    /// Where ``process(_:completion:)`` calls its completion: the main queue by default, as on iOS
    /// (an extension lets a Linux program without a main run loop name another).
    public var completionQueue: DispatchQueue {
        get { queue.withLock { $0 } }
        set { queue.withLock { $0 = newValue } }
    }

    /// A detector for `options` (read once). Never fails: models that cannot be used make every
    /// call fail with ``modelError``.
    public static func objectDetector(options: CustomObjectDetectorOptions) -> ObjectDetector { ObjectDetector(options: options) }

    static let failure = "Failed to initialize detector."

    private init(options: CustomObjectDetectorOptions) {
        do {
            let classifier =
                options.shouldEnableClassification
                ? try CustomClassifier.load(
                    options.localModel, threshold: options.resolvedThreshold, maxResults: options.resolvedLabelCount,
                    threads: options.numThreads, failure: Self.failure) : nil
            let localizer = try ObjectLocalizer.load(
                path: options.localizerModel?.path, minimumScore: options.localizerFloor,
                threads: options.numThreads, failure: Self.failure)
            state = Locked(State(session: StreamDetectionSession(options: options.sessionOptions, localizer: localizer, classifier: classifier)))
            modelError = nil
        } catch {
            state = nil
            modelError = error
        }
    }

    /// The objects in `image` (synchronous; any thread; calls are serialized).
    public func results(in image: VisionImage) throws -> [Object] { try results(of: image.contents) }

    func results(of image: VisionImage.Contents) throws -> [Object] {
        guard let state else { throw modelError ?? MLKitError(.internalError, Self.failure) }
        let pixels = try image.storedPixels()
        let found = try state.withLock { state in
            do {
                let objects = try state.session.process(pixels, orientation: image.orientation, timestampMs: image.resolvedTimestampMs)
                state.last = (image, pixels.width, pixels.height)
                return objects
            } catch let e as VisionCoreError { throw MLKitError(e) }
        }
        return found.map { o in
            Object(
                frame: image.frame(o.box, width: pixels.width, height: pixels.height), trackingID: o.trackingID.map { NSNumber(value: $0) },
                labels: o.labels.map { ObjectLabel(text: $0.categoryName ?? "", confidence: $0.score, index: $0.index) })
        }
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
    public func reset() { state?.withLock { $0.session.reset() } }

    /// Every box the localizer found in the last call, before selection and tracking (an extension).
    public var lastLocalizedObjects: [LocalizedObject] {
        state?.withLock { state in
            guard let last = state.last else { return [] }
            return state.session.lastLocalized.map {
                LocalizedObject(box: last.contents.frame($0.box, width: last.width, height: last.height), score: $0.score)
            }
        } ?? []
    }

    /// How many times the classifier has run (an extension, to check stream mode's label reuse).
    public var classificationCount: Int { state?.withLock { $0.session.classificationCount } ?? 0 }

    /// The path of the localizer model shipped with the package (an extension).
    public static var bundledLocalizerPath: String? { ObjectLocalizer.bundledModelPath }
}
