/// The input tensor an image is turned into: its size, how the picture is fitted to it, the
/// memory layout, and how pixel values are written.
package struct TensorFormat: Equatable, Sendable {
    /// How each channel value is stored.
    package enum Element: Equatable, Sendable {
        /// Raw 0…255 bytes (uint8 models).
        case uint8
        /// `(v − mean) / std` as float32; one value for all channels, or three (one per channel).
        case float32(mean: [Float], std: [Float])
        /// One byte per value, quantized from `v / 255` as Ultralytics does for full-integer models:
        /// `v / 255 / scale + zeroPoint`, clamped to the type's range and truncated toward zero
        /// (int8 when `signed`, else uint8).
        case quantized(scale: Float, zeroPoint: Int, signed: Bool)
    }

    /// How the picture is fitted to the tensor.
    package enum Fit: Equatable, Sendable {
        /// Stretched to the tensor's size (MediaPipe).
        case stretch
        /// Scaled to fit inside, aspect ratio kept, centred on a `padding` grey (Ultralytics' letterbox).
        case letterbox(padding: UInt8)
    }

    /// Where channel values sit in memory.
    package enum Layout: Equatable, Sendable {
        /// Height × width × channels (NHWC).
        case interleaved
        /// Channels × height × width (NCHW).
        case planar
    }

    package var width: Int
    package var height: Int
    /// 3 (RGB); 4 writes RGB plus an opaque alpha (255, or its normalized value).
    package var channels: Int
    /// How values are written.
    package var element: Element
    /// How the picture is fitted (stretched for MediaPipe, letterboxed for YOLO).
    package var fit: Fit
    /// NHWC or NCHW.
    package var layout: Layout

    package init(
        width: Int, height: Int, channels: Int = 3, element: Element, fit: Fit = .stretch, layout: Layout = .interleaved
    ) {
        self.width = width
        self.height = height
        self.channels = channels
        self.element = element
        self.fit = fit
        self.layout = layout
    }

    /// Bytes the tensor takes.
    package var byteCount: Int {
        switch element {
        case .uint8, .quantized: return width * height * channels
        case .float32: return width * height * channels * 4
        }
    }
}
