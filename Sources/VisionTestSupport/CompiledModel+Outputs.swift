import LiteRT

extension CompiledModel {
    /// Sets input 0 to the bytes of `input`, runs the model, and returns every output's bytes: the
    /// kernel tests compare a model compiled with LiteRT's kernels and one with VisionTasks' this way.
    package func outputs<Element>(for input: [Element]) throws -> [[UInt8]] {
        try input.withUnsafeBytes { try setInput(0, bytes: $0) }
        try run()
        return try outputs.indices.map { try outputBytes($0) }
    }
}
