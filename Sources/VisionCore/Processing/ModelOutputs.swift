import LiteRT

/// A compiled model's outputs, addressed by their position among the `.tflite` subgraph's outputs
/// (the order metadata describes). Models with signatures may list outputs in another order in
/// LiteRT; the two are matched by tensor name.
package struct ModelOutputs: Sendable {
    package let compiled: CompiledModel
    /// Subgraph output position → compiled output position.
    let order: [Int]

    /// Matches the compiled model's outputs to the subgraph's `tensorNames`.
    init(compiled: CompiledModel, tensorNames: [String]) throws {
        self.compiled = compiled
        var order: [Int] = []
        for name in tensorNames {
            guard let i = compiled.outputs.firstIndex(where: { $0.tensorName == name }) else {
                throw VisionCoreError(
                    .internal, "The runtime's outputs (\(compiled.outputs.map(\.tensorName))) do not include the model's output tensor '\(name)'.")
            }
            order.append(i)
        }
        self.order = order
    }

    /// Number of outputs.
    package var count: Int { order.count }

    /// Output `index` (subgraph order).
    package func description(_ index: Int) throws -> TensorDescription {
        guard order.indices.contains(index) else {
            throw VisionCoreError(.internal, "Output \(index) does not exist; the model has \(order.count).")
        }
        return compiled.outputs[order[index]]
    }

    /// Gives `body` the bytes of output `index` (subgraph order).
    package func withOutput<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        _ = try description(index)
        return try compiled.withOutput(order[index], body)
    }
}
