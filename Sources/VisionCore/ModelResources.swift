import FileInput
import Foundation
import LiteRT
import TFLiteModel

/// Everything a task reads from one model file: its bytes, the parsed `.tflite` structure, its
/// metadata and associated files, and the runtime's model loaded from the same bytes (the file is
/// read once) — LiteRT's by default, any ``InferenceRuntime``'s in tests.
package final class ModelResources: Sendable {
    package let file: ModelFile
    package let metadata: ModelMetadata?
    package let archive: ZipArchive?
    /// The model as the runtime loaded it, compiled by each ``ImageInference``.
    package let loaded: any LoadedModel
    /// Where the model came from (a path, or "<buffer>").
    package let source: String

    /// Loads the model at `path` with MediaPipe's errors for empty paths, missing and unreadable files.
    /// The file is memory-mapped, not copied: it must not be modified in place while loaded (replace
    /// it by rename; see `FileBytes`), or load a copy of its bytes with
    /// `init(bytes:…)`.
    package convenience init(
        path: String, runtime: any InferenceRuntime = LiteRTRuntime(), optimizeHybridModels: Bool = false,
        kernels: KernelChoice = .standard
    ) throws {
        guard !path.isEmpty else {
            throw VisionCoreError(
                .invalidArgument,
                "ExternalFile must specify at least one of 'file_content', 'file_name', 'file_pointer_meta' or "
                    + "'file_descriptor_meta'."
            )
        }
        let data: FileBytes
        do {
            data = try FileBytes(mapping: path, maxBytes: Int(Int32.max))
        } catch let e as FileInputError {
            switch e.code {
            case .notFound: throw VisionCoreError(.notFound, "Unable to open file at \(path)", underlying: e)
            case .permissionDenied:
                throw VisionCoreError(.permissionDenied, "Unable to open file at \(path)", underlying: e)
            case .notRegularFile, .tooLarge: throw VisionCoreError(.invalidArgument, e.message, underlying: e)
            case .unreadable: throw VisionCoreError(.unknown, e.message, underlying: e)
            }
        }
        try self.init(
            data: data, source: path, runtime: runtime, optimizeHybridModels: optimizeHybridModels, kernels: kernels)
    }

    /// Whether the runtime model is the hybrid-model rewrite (see
    /// `init(bytes:…)`).
    package let usesHybridRewrite: Bool
    /// The custom codes of the runtime model's ops that run on VisionTasks' own kernels, in order
    /// (pass them to `CompiledModel`).
    package let customOps: [String]
    /// How many hybrid depthwise ops run on VisionTasks' exact kernel.
    package var hybridDepthwiseOps: Int { ModelFile.CustomKernels.hybridDepthwise.count(in: customOps) }
    /// How many uint8 1×1 convolutions run on VisionTasks' exact kernel.
    package var quantizedConvOps: Int { ModelFile.CustomKernels.quantizedConv.count(in: customOps) }
    /// How many other uint8 convolutions (3×3, strided…) run on VisionTasks' exact kernel (im2col + GEMM).
    package var quantizedSpatialConvOps: Int { ModelFile.CustomKernels.quantizedSpatialConv.count(in: customOps) }
    /// How many uint8 and int8 depthwise convolutions run on VisionTasks' exact kernel.
    package var quantizedDepthwiseOps: Int { ModelFile.CustomKernels.quantizedDepthwise.count(in: customOps) }
    /// How many detection post-processing ops run on VisionTasks' exact kernel.
    package var detectionPostProcessOps: Int { ModelFile.CustomKernels.detectionPostProcess.count(in: customOps) }
    /// How many QUANTIZE ops between 8-bit types run on VisionTasks' requantization kernel.
    package var requantizeOps: Int { ModelFile.CustomKernels.requantize.count(in: customOps) }
    /// How many hybrid 1×1 convolutions run on VisionTasks' exact kernel.
    package var hybridConvOps: Int { ModelFile.CustomKernels.hybridConv.count(in: customOps) }

    /// Loads a model from bytes.
    /// - Parameter optimizeHybridModels: for models with float activations and int8 depthwise
    ///   filters, run a rewrite in which those filters go through DEQUANTIZE ops, so that XNNPACK
    ///   runs the convolutions in float (about 2.7× faster on SSD MobileNet v2 FPNLite) — at the
    ///   cost of scores that differ from MediaPipe's by up to ~0.01 on the top detections.
    /// - Parameter limits: the largest tensor and total of activations accepted (``ModelLimits/standard``).
    /// - Parameter kernels: which of VisionTasks' exact kernels replace LiteRT's (``KernelChoice/standard``).
    package convenience init(
        bytes: [UInt8], source: String = "<buffer>", runtime: any InferenceRuntime = LiteRTRuntime(),
        optimizeHybridModels: Bool = false,
        limits: ModelLimits = .standard, kernels: KernelChoice = .standard
    ) throws {
        try self.init(
            data: FileBytes(copying: bytes), source: source, runtime: runtime,
            optimizeHybridModels: optimizeHybridModels,
            limits: limits, kernels: kernels)
    }

    /// Loads a model from `data` — a model file's mapping, or a copy of bytes given in memory — which
    /// the parsed file, its metadata and, when no rewrite applies, LiteRT all read in place: the model
    /// is held once. Options as
    /// `init(bytes:…)`'s.
    package init(
        data: FileBytes, source: String = "<buffer>", runtime: any InferenceRuntime = LiteRTRuntime(),
        optimizeHybridModels: Bool = false,
        limits: ModelLimits = .standard, kernels: KernelChoice = .standard
    ) throws {
        self.source = source
        do {
            try FlatBufferVerifier.verifyModel(data)
            file = try ModelFile(data: data)
        } catch let e as TFLiteModelError {
            throw VisionCoreError(
                .invalidArgument, "The model is not a valid Flatbuffer buffer (\(source)): \(e.message)", underlying: e)
        }
        do {
            // LiteRT does not verify what it is given: nothing reaches it unchecked.
            try ModelVerifier.verify(file, limits: limits)
        } catch let e as TFLiteModelError {
            throw VisionCoreError(.invalidArgument, e.message, underlying: e)
        }
        do {
            metadata = try file.modelMetadata()
            archive = try file.associatedFiles()
        } catch let e as TFLiteModelError {
            throw Self.map(e)
        }
        var runtimeBytes: [UInt8]?
        var runtimeData: FileBytes?
        var rewritten = false
        var customOps: [String] = []
        do {
            if optimizeHybridModels, let faster = try file.dequantizingHybridDepthwiseFilters() {
                runtimeBytes = faster
                rewritten = true
            }
            let kernels = kernels.customKernels(optimizeHybridModels: optimizeHybridModels)
            let base = try runtimeBytes.map(ModelFile.init(bytes:)) ?? file
            if !kernels.isEmpty, let exact = try base.customKernelOps(kernels) {
                runtimeData = base.rewritten(head: exact.head)
                customOps = exact.codes
            } else if runtimeBytes != nil {
                runtimeData = base.data
            }
        } catch let e as TFLiteModelError {
            throw Self.map(e)
        }
        usesHybridRewrite = rewritten
        self.customOps = customOps
        do {
            loaded = try runtime.load(runtimeData ?? data, customOps: customOps)
        } catch let e as LiteRTError {
            let unavailable = e.code == .libraryNotFound || e.code == .symbolMissing
            throw VisionCoreError(
                unavailable ? .failedPrecondition : .invalidArgument, e.description, underlying: e,
                condition: unavailable ? .runtimeUnavailable : nil)
        }
    }

    /// Maps model-file errors onto MediaPipe's codes.
    package static func map(_ e: TFLiteModelError) -> VisionCoreError {
        switch e.code {
        case .associatedFileNotFound: return VisionCoreError(.notFound, e.message, underlying: e)
        default: return VisionCoreError(.invalidArgument, e.message, underlying: e)
        }
    }

    /// The LiteRT model, when LiteRT loaded this one (kernel tests compile it themselves).
    package var runtimeModel: LiteRT.Model {
        get throws {
            guard let liteRT = loaded as? LiteRTLoadedModel else {
                throw VisionCoreError(.failedPrecondition, "The model was loaded by another runtime than LiteRT.")
            }
            return liteRT.model
        }
    }

    /// Metadata of the first subgraph, if any.
    package var subgraphMetadata: ModelMetadata.SubgraphMetadata? { metadata?.subgraphs.first }

    /// The contents of associated file `name`.
    package func associatedFile(_ name: String) throws -> [UInt8] {
        guard let archive else { throw VisionCoreError(.notFound, "No associated file with name: \(name)") }
        do { return try archive.contents(of: name) } catch let e as TFLiteModelError { throw Self.map(e) }
    }
}
