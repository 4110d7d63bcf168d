import Imaging
import TFLiteModel

/// What a vision model's input tensor expects, checked the way MediaPipe checks it.
public struct ImageTensorSpec: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var channels: Int
    /// How pixel values are written.
    public var element: TensorFormat.Element

    /// The tensor format to preprocess into.
    public var tensorFormat: TensorFormat { TensorFormat(width: width, height: height, channels: channels, element: element) }

    /// Reads the spec from the model's single input tensor and its metadata.
    /// - Parameter allowPerChannelNormalization: accept three different mean/std values (an
    ///   extension; MediaPipe answers UNIMPLEMENTED).
    public init(resources: ModelResources, allowPerChannelNormalization: Bool = false) throws {
        let subgraph = resources.file.subgraphs[0]
        guard subgraph.inputs.count == 1, let tensor = subgraph.inputTensors.first else {
            throw VisionCoreError(.invalidArgument, "Image tflite models are assumed to have a single input.")
        }
        let meta = resources.subgraphMetadata?.inputTensors.first
        if let meta, let props = meta.content?.properties {
            switch props {
            case let .image(colorSpace, _):
                if colorSpace != .rgb { throw VisionCoreError(.invalidArgument, "Only RGB color space is supported for now.") }
            default:
                throw VisionCoreError(.invalidArgument, "Expected ImageProperties for tensor \(meta.name ?? tensor.name), got \(Self.contentName(props)).")
            }
        }
        guard tensor.shape.count == 4 else {
            throw VisionCoreError(.invalidArgument, "Only 4D tensors in BHWD layout are supported.")
        }
        guard tensor.type == .uint8 || tensor.type == .float32 else {
            throw VisionCoreError(
                .invalidArgument, "Type mismatch for input tensor \(tensor.name). Requested one of these types: uint8/float32, got \(tensor.type).")
        }
        let dims = tensor.shape
        let batch = dims[0] < 0 ? 1 : dims[0]
        guard batch == 1, dims[3] == 3 || dims[3] == 4, dims[1] > 0, dims[2] > 0 else {
            throw VisionCoreError(
                .invalidArgument,
                "The input tensor should have dimensions 1 x height x width x depth, where depth = 3 or 4. Got \(dims[0]) x \(dims[1]) x \(dims[2]) x \(dims[3])."
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
                "Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess input images.")
        }
        guard norm.mean.count == norm.std.count else {
            throw VisionCoreError(
                .invalidArgument,
                "NormalizationOptions: expected mean and std of same dimension, got \(norm.mean.count) and \(norm.std.count).")
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
            throw VisionCoreError(.internal, "NormalizationOptions.std_values can't be 0. Please check if the tensor metadata has been populated correctly.")
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
