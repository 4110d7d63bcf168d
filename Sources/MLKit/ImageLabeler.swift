import Foundation
import Imaging
import Locking
import VisionCore

/// The completion of ``ImageLabeler/process(_:completion:)``: labels, or the error.
public typealias ImageLabelingCallback = ([ImageLabel]?, Error?) -> Void

/// Labels pictures with a custom image classifier, with ML Kit's rules (`MLKImageLabeler`): the
/// model's own threshold when none is given (else 0), at most 10 labels by default, labels from the
/// model's label file, every orientation accepted. The pipeline is the one MediaPipe's classifier
/// runs here (same preprocessing, inference and post-processing).
public final class ImageLabeler: NSObject, Sendable {
    private let engine: ImageClassificationEngine?
    /// Why the model could not be loaded, if it could not (an extension: iOS reports it at the
    /// first call). Every call then fails with this error.
    public let modelError: Error?
    private let work = DispatchQueue(label: "com.google.mlkit.imageLabeler")
    private let queue = Locked<DispatchQueue>(.main)

    /// Where ``process(_:completion:)`` calls its completion: the main queue by default, as on
    /// iOS (an extension lets a Linux program without a main run loop name another).
    public var completionQueue: DispatchQueue {
        get { queue.withLock { $0 } }
        set { queue.withLock { $0 = newValue } }
    }

    /// A labeler for `options` (read once). Never fails: a model that cannot be used makes every
    /// call fail with ``modelError``.
    public static func imageLabeler(options: CustomImageLabelerOptions) -> ImageLabeler {
        ImageLabeler(options: options)
    }

    private init(options: CustomImageLabelerOptions) {
        do {
            engine = try Self.load(options)
            modelError = nil
        } catch {
            engine = nil
            modelError = error
        }
    }

    static let failure = "Failed to initialize labeler."

    /// Loads the model with ML Kit's custom-model contract (see ``CustomClassifier``).
    static func load(_ options: CustomImageLabelerOptions) throws -> ImageClassificationEngine {
        try CustomClassifier.load(
            options.localModel, threshold: options.resolvedThreshold,
            maxResults: options.resolvedMaxResultCount, threads: options.numThreads, failure: failure)
    }

    /// The labels of `image`, best first (synchronous; any thread).
    public func results(in image: VisionImage) throws -> [ImageLabel] { try results(of: image.contents) }

    func results(of image: VisionImage.Contents) throws -> [ImageLabel] {
        guard let engine else { throw modelError ?? MLKitError(.internalError, Self.failure) }
        let pixels = try image.uprightPixels()
        let heads: [HeadClassification]
        do { heads = try engine.classify(pixels) } catch let e as VisionCoreError { throw MLKitError(e) }
        return (heads.first?.categories ?? []).map {
            ImageLabel(text: $0.categoryName ?? "", confidence: $0.score, index: $0.index)
        }
    }

    /// Labels `image` on a queue of the labeler's and calls `completion` on ``completionQueue``
    /// with the labels or the error.
    public func process(_ image: VisionImage, completion: @escaping ImageLabelingCallback) {
        let contents = image.contents
        CompletionBox(completion).run(on: work, deliver: completionQueue) { [self] in try results(of: contents) }
    }

    #if compiler(>=6.2)
        /// The labels of `image`, awaited: the form iOS imports `process(_:completion:)` as in Swift
        /// (`let labels = try await imageLabeler.process(image)`). Runs on the labeler's queue; the image
        /// is read when the call is made. Callable from any actor or task.
        nonisolated(nonsending) public func process(_ image: VisionImage) async throws -> [ImageLabel] {
            let contents = image.contents
            return try await CompletionBox<[ImageLabel]>.value(on: work) { [self] in try results(of: contents) }
        }
    #else
        /// The labels of `image`, awaited: the form iOS imports `process(_:completion:)` as in Swift
        /// (`let labels = try await imageLabeler.process(image)`). Runs on the labeler's queue; the image
        /// is read when the call is made. Callable from any actor or task.
        /// (Swift 6.0 and 6.1 spell "runs on the caller's actor" with an isolated parameter.)
        public func process(
            _ image: VisionImage, isolation: isolated (any Actor)? = #isolation
        ) async throws -> [ImageLabel] {
            let contents = image.contents
            return try await CompletionBox<[ImageLabel]>.value(on: work) { [self] in try results(of: contents) }
        }
    #endif

    /// Timings of the last call in seconds: preprocessing, inference, post-processing (an extension).
    public var lastTimings: (preprocess: Double, inference: Double, postprocess: Double) {
        engine?.lastTimings.tuple ?? (0, 0, 0)
    }
}
