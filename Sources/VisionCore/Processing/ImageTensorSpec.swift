import Imaging
import TFLiteModel

/// What a vision model's input tensor expects, checked the way MediaPipe checks it.
package struct ImageTensorSpec: Equatable, Sendable {
    package var width: Int
    package var height: Int
    package var channels: Int
    /// How pixel values are written.
    package var element: TensorFormat.Element
    /// How the picture is fitted (MediaPipe stretches; YOLO detectors letterbox).
    package var fit: TensorFormat.Fit = .stretch
    /// NHWC, or NCHW (Ultralytics' LiteRT exports).
    package var layout: TensorFormat.Layout = .interleaved

    /// The tensor format to preprocess into.
    package var tensorFormat: TensorFormat {
        TensorFormat(width: width, height: height, channels: channels, element: element, fit: fit, layout: layout)
    }

    /// The input of a YOLO detector, as Ultralytics' `predict` fills it: the picture letterboxed on
    /// grey 114, RGB, NHWC or NCHW; float inputs take `v / 255`, int8 (and uint8 with quantization)
    /// inputs that value quantized, plain uint8 inputs the bytes.
    package init(letterboxFor resources: ModelResources) throws {
        guard let subgraph = resources.file.subgraphs.first, subgraph.inputs.count == 1,
            let tensor = subgraph.inputTensors.first
        else {
            throw VisionCoreError(.invalidArgument, "Image tflite models are assumed to have a single input.")
        }
        guard let size = YOLOHeadLayout.inputSize(tensor) else {
            throw VisionCoreError(
                .invalidArgument,
                "A YOLO detector's input must be [1, H, W, 3] or [1, 3, H, W] (or 4 channels), got \(tensor.shape).")
        }
        (width, height) = (size.width, size.height)
        channels = size.channelsFirst ? tensor.shape[1] : tensor.shape[3]
        fit = .letterbox(padding: 114)
        layout = size.channelsFirst ? .planar : .interleaved
        let q = tensor.quantization.flatMap { $0.isPerTensor ? ($0.scales[0], $0.zeroPoints.first ?? 0) : nil }
        switch tensor.type {
        case .float32: element = .float32(mean: [0], std: [255])
        case .int8:
            guard let q else {
                throw VisionCoreError(
                    .invalidArgument, "The int8 input tensor \(tensor.name) has no per-tensor quantization.")
            }
            element = .quantized(scale: q.0, zeroPoint: Int(q.1), signed: true)
        case .uint8:
            element = q.map { .quantized(scale: $0.0, zeroPoint: Int($0.1), signed: false) } ?? .uint8
        default:
            throw VisionCoreError(
                .invalidArgument,
                "Type mismatch for input tensor \(tensor.name). Requested one of these types: float32/int8/uint8, got "
                    + "\(tensor.type)."
            )
        }
    }

    /// Reads the spec from the model's single input tensor and its metadata.
    /// - Parameter allowPerChannelNormalization: accept three different mean/std values (an
    ///   extension; MediaPipe answers UNIMPLEMENTED).
    package init(resources: ModelResources, allowPerChannelNormalization: Bool = false) throws {
        let subgraph = resources.file.subgraphs[0]
        guard subgraph.inputs.count == 1, let tensor = subgraph.inputTensors.first else {
            throw VisionCoreError(.invalidArgument, "Image tflite models are assumed to have a single input.")
        }
        let meta = resources.subgraphMetadata?.inputTensors.first
        if let meta, let props = meta.content?.properties {
            switch props {
            case let .image(colorSpace, _):
                if colorSpace != .rgb {
                    throw VisionCoreError(.invalidArgument, "Only RGB color space is supported for now.")
                }
            default:
                throw VisionCoreError(
                    .invalidArgument,
                    "Expected ImageProperties for tensor \(meta.name ?? tensor.name), got \(Self.contentName(props)).")
            }
        }
        guard tensor.shape.count == 4 else {
            throw VisionCoreError(.invalidArgument, "Only 4D tensors in BHWD layout are supported.")
        }
        guard tensor.type == .uint8 || tensor.type == .float32 else {
            throw VisionCoreError(
                .invalidArgument,
                "Type mismatch for input tensor \(tensor.name). Requested one of these types: uint8/float32, got "
                    + "\(tensor.type)."
            )
        }
        let dims = tensor.shape
        let batch = dims[0] < 0 ? 1 : dims[0]
        guard batch == 1, dims[3] == 3 || dims[3] == 4, dims[1] > 0, dims[2] > 0 else {
            throw VisionCoreError(
                .invalidArgument,
                "The input tensor should have dimensions 1 x height x width x depth, where depth = 3 or 4. Got "
                    + "\(dims[0]) x \(dims[1]) x \(dims[2]) x \(dims[3])."
            )
        }
        height = dims[1]
        width = dims[2]
        channels = dims[3]
        if tensor.type == .uint8 {
            element = .uint8
            return
        }
        guard let norm = meta?.normalization else {
            throw VisionCoreError(
                .notFound,
                "Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess "
                    + "input images.",
                condition: .normalizationMissing)
        }
        guard norm.mean.count == norm.std.count else {
            throw VisionCoreError(
                .invalidArgument,
                "NormalizationOptions: expected mean and std of same dimension, got \(norm.mean.count) and "
                    + "\(norm.std.count)."
            )
        }
        guard norm.mean.count == 1 || norm.mean.count == 3 else {
            throw VisionCoreError(
                .invalidArgument,
                "NormalizationOptions: only 1 or 3 mean and std values are supported, got \(norm.mean.count).")
        }
        if norm.mean.count == 3 && !allowPerChannelNormalization {
            let uniform = norm.mean.allSatisfy { $0 == norm.mean[0] } && norm.std.allSatisfy { $0 == norm.std[0] }
            if !uniform { throw VisionCoreError(.unimplemented, "Per-channel image normalization is not available.") }
        }
        guard norm.std.allSatisfy({ abs($0) > 1e-6 }) else {
            throw VisionCoreError(
                .internal,
                "NormalizationOptions.std_values can't be 0. Please check if the tensor metadata has been populated "
                    + "correctly."
            )
        }
        element = .float32(mean: norm.mean, std: norm.std)
    }

    static func contentName(_ p: ModelMetadata.ContentProperties) -> String {
        switch p {
        case .feature: return "FeatureProperties"
        case .image: return "ImageProperties"
        case .boundingBox: return "BoundingBoxProperties"
        case .audio: return "AudioProperties"
        case .other(let t): return "ContentProperties(\(t))"
        }
    }
}
