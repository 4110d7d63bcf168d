/// An operator of a `.tflite` subgraph.
public struct Operator: Equatable, Sendable {
    /// Index into the model's ``ModelFile/operatorCodes``.
    public var opcodeIndex: Int
    public var inputs: [Int]
    public var outputs: [Int]
    /// FlexBuffer-encoded options of a custom op.
    public var customOptions: [UInt8]?

    public init(opcodeIndex: Int, inputs: [Int], outputs: [Int], customOptions: [UInt8]? = nil) {
        self.opcodeIndex = opcodeIndex
        self.inputs = inputs
        self.outputs = outputs
        self.customOptions = customOptions
    }
}
