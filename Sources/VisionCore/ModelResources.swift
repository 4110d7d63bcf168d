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
        exactHybridKernel: Bool = ModelResources.exactHybridKernelByDefault,
        conv1x1Kernel: Bool = ModelResources.conv1x1KernelByDefault,
        depthwiseKernel: Bool = ModelResources.depthwiseKernelByDefault,
        postProcessKernel: Bool = ModelResources.postProcessKernelByDefault,
        hybridConvKernel: Bool = ModelResources.hybridConvKernelByDefault
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
            data: data, source: path, runtime: runtime, optimizeHybridModels: optimizeHybridModels,
            exactHybridKernel: exactHybridKernel,
            conv1x1Kernel: conv1x1Kernel, depthwiseKernel: depthwiseKernel, postProcessKernel: postProcessKernel,
            hybridConvKernel: hybridConvKernel)
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
    /// How many hybrid 1×1 convolutions run on VisionTasks' exact kernel.
    package var hybridConvOps: Int { ModelFile.CustomKernels.hybridConv.count(in: customOps) }

    /// Whether hybrid depthwise convolutions run on VisionTasks' exact kernel (results bit-identical
    /// to LiteRT's built-in kernel, faster): the default in optimized (release) builds on CPUs where
    /// it has a vector path (x86-64 with AVX2 or AVX-512; elsewhere LiteRT's kernels are the faster).
    /// `VISION_TASKS_HYBRID_KERNEL=builtin` turns it off, `=ours` on in any build.
    package static var exactHybridKernelByDefault: Bool {
        kernelSwitch(["VISION_TASKS_HYBRID_KERNEL"]) {
            CompiledModel.customKernelsOptimized && CompiledModel.hybridDepthwiseKernelPath != "scalar"
        }
    }

    /// The first of the environment variables `names` that is set: `builtin` → false, `ours` → true;
    /// otherwise (none set, or another value) `otherwise`.
    static func kernelSwitch(_ names: [String], otherwise: () -> Bool) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        switch names.lazy.compactMap({ environment[$0] }).first {
        case "builtin": return false
        case "ours": return true
        default: return otherwise()
        }
    }

    /// Whether 1×1 convolutions (uint8; hybrid: see ``hybridConvKernelByDefault``), and the other uint8
    /// convolutions through im2col, run on
    /// VisionTasks' exact kernel (bit-identical to XNNPACK's): the default in optimized (release)
    /// builds on CPUs where it is the faster one (x86-64 with AVX2 or AVX-512 VNNI).
    /// `VISION_TASKS_CONV1X1_KERNEL=builtin` turns it off, `=ours` on everywhere.
    package static var conv1x1KernelByDefault: Bool {
        kernelSwitch(["VISION_TASKS_CONV1X1_KERNEL"]) {
            CompiledModel.customKernelsOptimized && CompiledModel.conv1x1KernelPreferred
        }
    }

    /// Whether hybrid 1×1 convolutions (float input, int8 filter) run on VisionTasks' exact kernel too
    /// when the 1×1 kernel is on (``conv1x1KernelByDefault``): by default yes. On CPUs with AVX-512 VNNI
    /// XNNPACK's (bit-identical) dynamically quantized GEMM is about as fast per op, and kept its
    /// partitions whole; with the fusions (``fusedKernelsByDefault``: the heads written in place, the
    /// depthwise inputs' ranges taken while in cache) ours is the faster there too.
    /// `VISION_TASKS_HYBRID_CONV_KERNEL=builtin` or `VISION_TASKS_CONV1X1_KERNEL=builtin` leaves them
    /// to XNNPACK, `=ours` runs them on ours.
    package static var hybridConvKernelByDefault: Bool {
        kernelSwitch(["VISION_TASKS_HYBRID_CONV_KERNEL", "VISION_TASKS_CONV1X1_KERNEL"]) { true }
    }

    /// Whether the hybrid 1×1 kernel's fusions are on (ModelFile+KernelFusions.swift: SSD heads written
    /// in place of their concatenation, depthwise inputs' ranges taken by the convolution that makes
    /// them; results bit-identical either way): by default, whenever that kernel runs.
    /// `VISION_TASKS_FUSED_KERNELS=builtin` turns them off (to measure what they give).
    package static var fusedKernelsByDefault: Bool {
        kernelSwitch(["VISION_TASKS_FUSED_KERNELS"]) { true }
    }

    /// Whether uint8 and int8 depthwise convolutions run on VisionTasks' exact kernel (bit-identical to
    /// XNNPACK's): the default in optimized (release) builds on x86-64 CPUs with AVX2 or AVX-512 VNNI.
    /// `VISION_TASKS_DEPTHWISE_KERNEL=builtin` turns it off, `=ours` on in any build.
    package static var depthwiseKernelByDefault: Bool {
        kernelSwitch(["VISION_TASKS_DEPTHWISE_KERNEL"]) {
            CompiledModel.customKernelsOptimized && CompiledModel.quantizedDepthwiseKernelPath != "scalar"
        }
    }

    /// Whether `TFLite_Detection_PostProcess` ops (fast NMS, one class per detection) run on VisionTasks'
    /// exact kernel (outputs bit-identical to LiteRT's built-in kernel; it decodes only the boxes the
    /// suppression looks at): the default in optimized (release) builds, on every CPU (it is portable C).
    /// `VISION_TASKS_POSTPROCESS_KERNEL=builtin` turns it off, `=ours` on in any build.
    package static var postProcessKernelByDefault: Bool {
        kernelSwitch(["VISION_TASKS_POSTPROCESS_KERNEL"]) { CompiledModel.customKernelsOptimized }
    }

    /// Loads a model from bytes.
    /// - Parameter optimizeHybridModels: for models with float activations and int8 depthwise
    ///   filters, run a rewrite in which those filters go through DEQUANTIZE ops, so that XNNPACK
    ///   runs the convolutions in float (about 2.7× faster on SSD MobileNet v2 FPNLite) — at the
    ///   cost of scores that differ from MediaPipe's by up to ~0.01 on the top detections.
    /// - Parameter limits: the largest tensor and total of activations accepted (``ModelLimits/standard``).
    package convenience init(
        bytes: [UInt8], source: String = "<buffer>", runtime: any InferenceRuntime = LiteRTRuntime(),
        optimizeHybridModels: Bool = false,
        limits: ModelLimits = .standard, exactHybridKernel: Bool = ModelResources.exactHybridKernelByDefault,
        conv1x1Kernel: Bool = ModelResources.conv1x1KernelByDefault,
        depthwiseKernel: Bool = ModelResources.depthwiseKernelByDefault,
        postProcessKernel: Bool = ModelResources.postProcessKernelByDefault,
        hybridConvKernel: Bool = ModelResources.hybridConvKernelByDefault
    ) throws {
        try self.init(
            data: FileBytes(copying: bytes), source: source, runtime: runtime,
            optimizeHybridModels: optimizeHybridModels,
            limits: limits, exactHybridKernel: exactHybridKernel, conv1x1Kernel: conv1x1Kernel,
            depthwiseKernel: depthwiseKernel, postProcessKernel: postProcessKernel, hybridConvKernel: hybridConvKernel)
    }

    /// Loads a model from `data` — a model file's mapping, or a copy of bytes given in memory — which
    /// the parsed file, its metadata and, when no rewrite applies, LiteRT all read in place: the model
    /// is held once. Options as
    /// `init(bytes:…)`'s.
    package init(
        data: FileBytes, source: String = "<buffer>", runtime: any InferenceRuntime = LiteRTRuntime(),
        optimizeHybridModels: Bool = false,
        limits: ModelLimits = .standard, exactHybridKernel: Bool = ModelResources.exactHybridKernelByDefault,
        conv1x1Kernel: Bool = ModelResources.conv1x1KernelByDefault,
        depthwiseKernel: Bool = ModelResources.depthwiseKernelByDefault,
        postProcessKernel: Bool = ModelResources.postProcessKernelByDefault,
        hybridConvKernel: Bool = ModelResources.hybridConvKernelByDefault
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
            var kernels: ModelFile.CustomKernels = conv1x1Kernel ? [.quantizedConv, .quantizedSpatialConv] : []
            if conv1x1Kernel && hybridConvKernel {
                kernels.insert(.hybridConv)
                if Self.fusedKernelsByDefault {
                    kernels.formUnion([.hybridConvGroups, .linkedRanges])
                    if CompiledModel.convDepthwiseFusionExact { kernels.insert(.hybridConvDepthwise) }
                }
            }
            if depthwiseKernel { kernels.insert(.quantizedDepthwise) }
            if postProcessKernel { kernels.insert(.detectionPostProcess) }
            if optimizeHybridModels {
                if let faster = try file.dequantizingHybridDepthwiseFilters() {
                    runtimeBytes = faster; rewritten = true
                }
            } else if exactHybridKernel {
                kernels.insert(.hybridDepthwise)
            }
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
