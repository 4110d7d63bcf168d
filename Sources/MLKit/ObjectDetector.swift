import Foundation
import Imaging
import Locking
import VisionCore

/// Detects, tracks and classifies objects (`MLKObjectDetector` with custom-model options): a facade on
/// the core's `StreamDetectionSession`. Frames are in the picture as shown for `VisionImage(image:)`,
/// in the stored pixels for `VisionImage(buffer:)`; the Compatibility article has the rules ML Kit leaves open.
public final class ObjectDetector: NSObject, Sendable {
    /// The session and the geometry of the last picture (to report ``lastLocalizedObjects``).
    private struct State {
        let session: StreamDetectionSession
        var last: (contents: VisionImage.Contents, width: Int, height: Int)?
    }

    private let state: Locked<State>?
    /// Why the models could not be loaded (an extension: iOS reports it at the first call, as every call does).
    public let modelError: Error?
    private let work = DispatchQueue(label: "com.google.mlkit.objectDetector")
    private let queue = Locked<DispatchQueue>(.main)

    /// Where ``process(_:completion:)`` calls its completion: the main queue, as on iOS, unless set (an extension).
    public var completionQueue: DispatchQueue {
        get { queue.withLock { $0 } }
        set { queue.withLock { $0 = newValue } }
    }

    /// A detector for `options` (read once). Never fails: unusable models make every call fail with ``modelError``.
    public static func objectDetector(options: CustomObjectDetectorOptions) -> ObjectDetector {
        ObjectDetector(options: options)
    }

    static let failure = "Failed to initialize detector."

    private init(options: CustomObjectDetectorOptions) {
        do {
            state = Locked(State(session: try options.session(failure: Self.failure)))
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
                let objects = try state.session.process(
                    pixels, orientation: image.orientation.imaging, timestampMs: image.resolvedTimestampMs)
                state.last = (image, pixels.width, pixels.height)
                return objects
            } catch let e as VisionCoreError { throw MLKitError(e) }
        }
        return found.map { o in
            Object(
                frame: image.frame(o.box, width: pixels.width, height: pixels.height),
                trackingID: o.trackingID.map { NSNumber(value: $0) },
                labels: o.labels.map { ObjectLabel(text: $0.categoryName ?? "", confidence: $0.score, index: $0.index) }
            )
        }
    }

    /// Detects objects in `image` on a queue of the detector's and calls `completion` on
    /// ``completionQueue`` with the objects or the error.
    public func process(_ image: VisionImage, completion: @escaping ObjectDetectionCallback) {
        let contents = image.contents
        CompletionBox(completion).run(on: work, deliver: completionQueue) { [self] in try results(of: contents) }
    }

    #if compiler(>=6.2)
        /// The objects in `image`, awaited — iOS's Swift form of `process(_:completion:)`: `try await
        /// objectDetector.process(image)`. The image is read at the call; callable from any actor or task.
        nonisolated(nonsending) public func process(_ image: VisionImage) async throws -> [Object] {
            let contents = image.contents
            return try await CompletionBox<[Object]>.value(on: work) { [self] in try results(of: contents) }
        }
    #else
        /// The objects in `image`, awaited — iOS's Swift form of `process(_:completion:)`: `try await
        /// objectDetector.process(image)`. The image is read at the call; callable from any actor or task.
        /// (Swift 6.0 and 6.1 spell "runs on the caller's actor" with an isolated parameter.)
        public func process(
            _ image: VisionImage, isolation: isolated (any Actor)? = #isolation
        ) async throws -> [Object] {
            let contents = image.contents
            return try await CompletionBox<[Object]>.value(on: work) { [self] in try results(of: contents) }
        }
    #endif

    /// Forgets every tracked object (stream mode; IDs are not reused afterwards). An extension.
    public func reset() { state?.withLock { $0.session.reset() } }

    /// Every box the localizer found in the last call, before selection and tracking (an extension).
    public var lastLocalizedObjects: [LocalizedObject] {
        state?.withLock { state in
            guard let last = state.last else { return [] }
            return state.session.lastLocalized.map {
                LocalizedObject(
                    box: last.contents.frame($0.box, width: last.width, height: last.height), score: $0.score)
            }
        } ?? []
    }

    /// How many times the classifier has run (an extension, to check stream mode's label reuse).
    public var classificationCount: Int { state?.withLock { $0.session.classificationCount } ?? 0 }

    /// The path of the localizer model shipped with the package (an extension).
    public static var bundledLocalizerPath: String? { ObjectLocalizer.bundledModelPath }
}
