import LiteRT

/// The seam between the tasks and the runtime: a compiled model's declared tensors, its input
/// memory to fill, one run, its outputs to read. ``ImageInference`` runs any of them — LiteRT's
/// ``CompiledModel`` in the tasks, a scripted fake in tests of the post-processing, running modes and
/// live streams (VisionTestSupport's `ScriptedRuntime`), which then need no `libLiteRt.so`.
package protocol InferenceModel: AnyObject, Sendable {
    /// The inputs, in the model's order, with their concrete shapes and byte counts.
    var inputs: [TensorDescription] { get }
    /// The outputs, in the runtime's order (``ModelOutputs`` matches them to the model file's).
    var outputs: [TensorDescription] { get }
    /// Runs `body` under the model's lock: writing inputs, running and reading outputs as one step.
    func invoke<T>(_ body: () throws -> T) rethrows -> T
    /// Gives `body` input `index`'s memory (exactly its byte count) to fill.
    func withInput<T>(_ index: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> T) throws -> T
    /// Runs the model on the current inputs.
    func run() throws
    /// Gives `body` output `index`'s bytes (valid only inside `body`).
    func withOutput<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T
}

extension CompiledModel: InferenceModel {}
