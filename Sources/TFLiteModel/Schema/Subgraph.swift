/// A subgraph of a `.tflite` model: its tensors, operators and input/output tensor indices.
package struct Subgraph: Equatable, Sendable {
    package var name: String?
    package var tensors: [Tensor]
    package var inputs: [Int]
    package var outputs: [Int]
    package var operators: [Operator]

    package init(name: String? = nil, tensors: [Tensor], inputs: [Int], outputs: [Int], operators: [Operator]) {
        self.name = name
        self.tensors = tensors
        self.inputs = inputs
        self.outputs = outputs
        self.operators = operators
    }

    /// The input tensors, in order.
    package var inputTensors: [Tensor] { inputs.compactMap { tensors.indices.contains($0) ? tensors[$0] : nil } }
    /// The output tensors, in order.
    package var outputTensors: [Tensor] { outputs.compactMap { tensors.indices.contains($0) ? tensors[$0] : nil } }
}
