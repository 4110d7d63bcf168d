/// A subgraph of a `.tflite` model: its tensors, operators and input/output tensor indices.
public struct Subgraph: Equatable, Sendable {
    public var name: String?
    public var tensors: [Tensor]
    public var inputs: [Int]
    public var outputs: [Int]
    public var operators: [Operator]

    public init(name: String? = nil, tensors: [Tensor], inputs: [Int], outputs: [Int], operators: [Operator]) {
        self.name = name
        self.tensors = tensors
        self.inputs = inputs
        self.outputs = outputs
        self.operators = operators
    }

    /// The input tensors, in order.
    public var inputTensors: [Tensor] { inputs.compactMap { tensors.indices.contains($0) ? tensors[$0] : nil } }
    /// The output tensors, in order.
    public var outputTensors: [Tensor] { outputs.compactMap { tensors.indices.contains($0) ? tensors[$0] : nil } }
}
