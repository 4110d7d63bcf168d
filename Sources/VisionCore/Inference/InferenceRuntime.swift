import FileInput
import LiteRT

/// What loads a model for ``ModelResources`` and compiles it for ``ImageInference``: LiteRT
/// (``LiteRTRuntime``, the default) or a test's scripted fake.
package protocol InferenceRuntime: Sendable {
    /// Loads the model's runtime bytes (after VisionTasks' rewrites): the runtime's own checks run
    /// here, when the model is loaded, as MediaPipe's do. `customOps` are the custom codes of the ops
    /// moved onto VisionTasks' kernels.
    func load(_ bytes: FileBytes, customOps: [String]) throws -> any LoadedModel
}

/// A model a runtime has loaded, ready to be compiled (once per task instance).
package protocol LoadedModel: Sendable {
    /// A compiled instance running on `threads` CPU threads.
    func compile(threads: Int) throws -> any InferenceModel
}

/// LiteRT, loaded from `libLiteRt.so` (the shared ``Environment`` unless one is given).
package struct LiteRTRuntime: InferenceRuntime {
    /// The environment models are loaded in (nil: the shared one).
    package let environment: Environment?

    package init(environment: Environment? = nil) { self.environment = environment }

    package func load(_ bytes: FileBytes, customOps: [String]) throws -> any LoadedModel {
        let env = try environment ?? Environment.shared()
        return LiteRTLoadedModel(
            model: try Model(inPlace: bytes.buffer, owner: bytes, environment: env), customOps: customOps)
    }
}

/// A LiteRT model and the custom ops its compiled instances register.
package struct LiteRTLoadedModel: LoadedModel {
    /// The LiteRT model (reads the runtime bytes in place).
    package let model: Model
    /// The custom codes of the ops VisionTasks' kernels run, in order.
    package let customOps: [String]

    package func compile(threads: Int) throws -> any InferenceModel {
        try CompiledModel(model: model, threads: threads, customOps: customOps)
    }
}
