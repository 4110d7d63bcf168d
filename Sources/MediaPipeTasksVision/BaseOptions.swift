import Foundation
import VisionCore

/// Options shared by every task: which model, which processor (`MPPBaseOptions`).
public final class BaseOptions: NSObject, NSCopying {
    /// Absolute path of the `.tflite` model. Optional on purpose, so that
    /// `baseOptions.modelAssetPath = Bundle.main.path(forResource:ofType:)` compiles as on iOS; nil
    /// reads as the empty string.
    public var modelAssetPath: String! {
        get { path }
        set { path = newValue ?? "" }
    }
    private var path = ""

    /// The model's bytes, instead of a path (an extension: MediaPipe's iOS API has no buffer option).
    public var modelAssetBuffer: Data?

    /// The processor to run on (default `.CPU`; `.GPU` is refused on Linux).
    public var delegate: Delegate = .CPU

    /// CPU threads for inference (an extension; default 1; 1…``maxThreads``, else tasks refuse
    /// the options with code 3).
    public var numThreads: Int = 1

    /// The most threads a task accepts.
    public static let maxThreads = 256

    /// For "hybrid" models (float activations, int8 weights, such as SSD MobileNet v2 FPNLite
    /// converted with dynamic-range quantization): run their depthwise convolutions in float through
    /// DEQUANTIZE ops, which LiteRT's XNNPACK runs about 2.7× faster than its built-in hybrid kernel.
    /// Results then differ from MediaPipe's (top scores by up to ~0.01, low-score detections may
    /// change), so it is off by default (an extension).
    public var optimizeHybridModels: Bool = false

    /// The runtime that loads the model (nil: LiteRT). Package-internal: tests put a scripted fake
    /// here to drive the tasks without `libLiteRt.so`.
    package var inferenceRuntime: (any InferenceRuntime)?

    /// Default options: no model yet, CPU, one thread.
    public override init() {}

    /// An independent copy of every option.
    public func copy(with zone: NSZone? = nil) -> Any {
        let c = BaseOptions()
        c.path = path
        c.modelAssetBuffer = modelAssetBuffer
        c.delegate = delegate
        c.numThreads = numThreads
        c.optimizeHybridModels = optimizeHybridModels
        c.inferenceRuntime = inferenceRuntime
        return c
    }
}
