import LiteRT

/// A compiled model's outputs, addressed by their position among the `.tflite` subgraph's outputs
/// (the order metadata describes). Models with signatures may list outputs in another order in
/// LiteRT; the two are matched by tensor name.
package struct ModelOutputs: Sendable {
    package let compiled: any InferenceModel
    /// Subgraph output position → compiled output position.
    let order: [Int]

    /// Matches the compiled model's outputs to the subgraph's `tensorNames`.
    init(compiled: any InferenceModel, tensorNames: [String]) throws {
        self.compiled = compiled
        var order: [Int] = []
        for name in tensorNames {
            guard let i = compiled.outputs.firstIndex(where: { $0.tensorName == name }) else {
                throw VisionCoreError(
                    .internal,
                    "The runtime's outputs (\(compiled.outputs.map(\.tensorName))) do not include the model's output "
                        + "tensor '\(name)'."
                )
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

    /// Gives `body` output `index` as floats — the one dequantizing reader every head reads through:
    /// float32 in place, float16 widened, int8 and uint8 dequantized (`scale × (q − zero point)`), bool
    /// as 0 or 1 — when `accepted` holds its type; any other type throws `refusal(type)`.
    package func withFloats<T>(
        _ index: Int, accepting accepted: Set<ElementType>, refusal: (ElementType) -> VisionCoreError,
        _ body: (UnsafeBufferPointer<Float>) throws -> T
    ) throws -> T {
        let d = try description(index)
        guard accepted.contains(d.elementType) else { throw refusal(d.elementType) }
        let q = d.quantization ?? Quantization(scale: 1, zeroPoint: 0)
        let scale = q.scale, zero = Float(q.zeroPoint)
        return try withOutput(index) { raw in
            switch d.elementType {
            case .float32: return try body(raw.bindMemory(to: Float.self))
            case .float16: return try raw.bindMemory(to: Float16.self).map(Float.init).withUnsafeBufferPointer(body)
            case .int8:
                return try raw.map { scale * (Float(Int8(bitPattern: $0)) - zero) }.withUnsafeBufferPointer(body)
            case .uint8: return try raw.map { scale * (Float($0) - zero) }.withUnsafeBufferPointer(body)
            case .bool: return try raw.map { $0 != 0 ? Float(1) : 0 }.withUnsafeBufferPointer(body)
            default: throw refusal(d.elementType)
            }
        }
    }

    /// A copy of output `index` as floats (``withFloats(_:accepting:refusal:_:)``).
    package func floats(
        _ index: Int, accepting accepted: Set<ElementType>, refusal: (ElementType) -> VisionCoreError
    ) throws -> [Float] {
        try withFloats(index, accepting: accepted, refusal: refusal) { Array($0) }
    }
}
