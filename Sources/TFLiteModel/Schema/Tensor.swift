/// A tensor of a `.tflite` subgraph.
public struct Tensor: Equatable, Sendable {
    /// Quantization parameters (`tflite::QuantizationParameters`).
    public struct QuantizationParameters: Equatable, Sendable {
        public var scales: [Float]
        public var zeroPoints: [Int64]
        public var quantizedDimension: Int
        public var min: [Float]
        public var max: [Float]

        public init(scales: [Float] = [], zeroPoints: [Int64] = [], quantizedDimension: Int = 0, min: [Float] = [], max: [Float] = []) {
            self.scales = scales
            self.zeroPoints = zeroPoints
            self.quantizedDimension = quantizedDimension
            self.min = min
            self.max = max
        }

        /// True when the tensor has exactly one scale (per-tensor quantization).
        public var isPerTensor: Bool { scales.count == 1 }
    }

    public var name: String
    public var shape: [Int]
    /// The shape with -1 for dynamic dimensions, when the model records one.
    public var shapeSignature: [Int]?
    public var type: TensorType
    /// Index into the model's buffers (0 = no data).
    public var buffer: Int
    public var quantization: QuantizationParameters?
    public var isVariable: Bool

    public init(
        name: String, shape: [Int], shapeSignature: [Int]? = nil, type: TensorType, buffer: Int = 0,
        quantization: QuantizationParameters? = nil, isVariable: Bool = false
    ) {
        self.name = name
        self.shape = shape
        self.shapeSignature = shapeSignature
        self.type = type
        self.buffer = buffer
        self.quantization = quantization
        self.isVariable = isVariable
    }
}
