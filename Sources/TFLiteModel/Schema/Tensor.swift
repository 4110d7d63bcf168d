/// A tensor of a `.tflite` subgraph.
package struct Tensor: Equatable, Sendable {
    /// Quantization parameters (`tflite::QuantizationParameters`).
    package struct QuantizationParameters: Equatable, Sendable {
        package var scales: [Float]
        package var zeroPoints: [Int64]
        package var quantizedDimension: Int
        package var min: [Float]
        package var max: [Float]

        package init(
            scales: [Float] = [], zeroPoints: [Int64] = [], quantizedDimension: Int = 0, min: [Float] = [],
            max: [Float] = []
        ) {
            self.scales = scales
            self.zeroPoints = zeroPoints
            self.quantizedDimension = quantizedDimension
            self.min = min
            self.max = max
        }

        /// True when the tensor has exactly one scale (per-tensor quantization).
        package var isPerTensor: Bool { scales.count == 1 }
    }

    package var name: String
    package var shape: [Int]
    /// The shape with -1 for dynamic dimensions, when the model records one.
    package var shapeSignature: [Int]?
    package var type: TensorType
    /// Index into the model's buffers (0 = no data).
    package var buffer: Int
    package var quantization: QuantizationParameters?
    package var isVariable: Bool

    package init(
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
