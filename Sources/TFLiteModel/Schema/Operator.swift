/// An operator of a `.tflite` subgraph.
package struct Operator: Equatable, Sendable {
    /// Index into the model's ``ModelFile/operatorCodes``.
    package var opcodeIndex: Int
    package var inputs: [Int]
    package var outputs: [Int]
    /// FlexBuffer-encoded options of a custom op.
    package var customOptions: [UInt8]?

    package init(opcodeIndex: Int, inputs: [Int], outputs: [Int], customOptions: [UInt8]? = nil) {
        self.opcodeIndex = opcodeIndex
        self.inputs = inputs
        self.outputs = outputs
        self.customOptions = customOptions
    }
}
