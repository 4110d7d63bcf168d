import LiteRT
import VisionCore

/// Runs the model `resources` holds (LiteRT's kernels or ours, as its rewrite chose) once on `input` —
/// uint8 or float elements, as the model's input takes — with `threads` threads; its first output's bytes.
/// The one way the kernel suites compare a rewrite with the built-in kernels on whole models.
func runModel<Element>(_ resources: ModelResources, _ input: [Element], threads: Int = 1) throws -> [UInt8] {
    let compiled = try CompiledModel(model: resources.runtimeModel, threads: threads, customOps: resources.customOps)
    try input.withUnsafeBytes { try compiled.setInput(0, bytes: $0) }
    try compiled.run()
    return try compiled.outputBytes(0)
}
