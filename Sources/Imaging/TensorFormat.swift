/// The input tensor an image is turned into: its size, and how pixel values are written.
public struct TensorFormat: Equatable, Sendable {
    /// How each channel value is stored.
    public enum Element: Equatable, Sendable {
        /// Raw 0…255 bytes (uint8 models).
        case uint8
        /// `(v − mean) / std` as float32; one value for all channels, or three (one per channel).
        case float32(mean: [Float], std: [Float])
    }

    public var width: Int
    public var height: Int
    /// 3 (RGB); 4 writes RGB plus an opaque alpha (255, or its normalized value).
    public var channels: Int
    public var element: Element

    public init(width: Int, height: Int, channels: Int = 3, element: Element) {
        self.width = width
        self.height = height
        self.channels = channels
        self.element = element
    }

    /// Bytes the tensor takes.
    public var byteCount: Int {
        switch element {
        case .uint8: return width * height * channels
        case .float32: return width * height * channels * 4
        }
    }
}
