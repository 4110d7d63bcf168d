import Foundation
import LiteRT
import TFLiteModel

/// Which of VisionTasks' exact kernels a model is compiled with, in place of LiteRT's built-in ones: one
/// `Sendable` value, decided once per process from the CPU's paths and the environment's switches
/// (``standard``), or given whole (``builtin``; `bench --profile`'s columns; the kernel tests through
/// ``with(hybridDepthwise:conv1x1:hybridConv:fusions:depthwise:postProcess:int8SpatialConv:requantize:)``).
/// Every kernel's results are bit-identical to LiteRT's; the choice is about speed.
package struct KernelChoice: Sendable, Equatable, CustomStringConvertible {
    /// Hybrid depthwise convolutions (float input, int8 filter) on the exact hybrid kernel.
    package var hybridDepthwise: Bool
    /// Uint8 1×1 convolutions, and the other uint8 convolutions through im2col, on the 1×1 kernel.
    package var conv1x1: Bool
    /// With ``conv1x1``: hybrid 1×1 convolutions (float input, int8 filter) on it too.
    package var hybridConv: Bool
    /// With ``hybridConv``: its fusions (SSD heads written in place, depthwise inputs' ranges linked,
    /// a 1×1 convolution fused into the float depthwise op that alone reads it, where that equals LiteRT).
    package var fusions: Bool
    /// Uint8 and int8 depthwise convolutions on the 8-bit depthwise kernel.
    package var depthwise: Bool
    /// `TFLite_Detection_PostProcess` on the exact post-processing kernel.
    package var postProcess: Bool
    /// With ``conv1x1``: int8 convolutions other than 1×1 on it too (im2col, then the GEMM). Off by
    /// default: XNNPACK's indirect GEMM, which also absorbs a PAD before the convolution, is faster on
    /// the YOLO int8 models (and as fast on MobileNet v2's first layer).
    package var int8SpatialConv: Bool
    /// QUANTIZE between 8-bit types at one scale (TF2 post-training quantized models' first op) on the
    /// requantization kernel.
    package var requantize: Bool

    /// Every kernel as given.
    package init(
        hybridDepthwise: Bool, conv1x1: Bool, hybridConv: Bool, fusions: Bool, depthwise: Bool, postProcess: Bool,
        int8SpatialConv: Bool = false, requantize: Bool = false
    ) {
        self.hybridDepthwise = hybridDepthwise
        self.conv1x1 = conv1x1
        self.hybridConv = hybridConv
        self.fusions = fusions
        self.depthwise = depthwise
        self.postProcess = postProcess
        self.int8SpatialConv = int8SpatialConv
        self.requantize = requantize
    }

    /// LiteRT's built-in kernels only.
    package static let builtin = KernelChoice(
        hybridDepthwise: false, conv1x1: false, hybridConv: false, fusions: false, depthwise: false,
        postProcess: false, int8SpatialConv: false, requantize: false)

    /// The process's choice: ``init(environment:)`` of its environment, read once.
    package static let standard = KernelChoice(environment: ProcessInfo.processInfo.environment)

    /// The default on this CPU and build — each kernel where it is the faster and was compiled optimized
    /// (a release build) — with the environment's switches applied: `VISION_TASKS_HYBRID_KERNEL`,
    /// `VISION_TASKS_CONV1X1_KERNEL`, `VISION_TASKS_HYBRID_CONV_KERNEL` (else, on x86-64, the 1×1 switch; on
    /// aarch64 the hybrid kind is LiteRT's unless named),
    /// `VISION_TASKS_FUSED_KERNELS`, `VISION_TASKS_DEPTHWISE_KERNEL`, `VISION_TASKS_POSTPROCESS_KERNEL`,
    /// `VISION_TASKS_REQUANTIZE_KERNEL`, `VISION_TASKS_INT8_SPATIAL_KERNEL` (off unless `ours`): `builtin` turns
    /// one off, `ours` on in any build.
    package init(environment: [String: String]) {
        func choice(_ names: [String], otherwise: Bool) -> Bool {
            switch names.lazy.compactMap({ environment[$0] }).first {
            case "builtin": return false
            case "ours": return true
            default: return otherwise
            }
        }
        let optimized = CompiledModel.customKernelsOptimized
        // The hybrid 1×1 kind reproduces XNNPACK's x86-64 arithmetic: on aarch64 it stays LiteRT's.
        let hybridExact = CompiledModel.hybridConvKernelExact
        self.init(
            hybridDepthwise: choice(
                ["VISION_TASKS_HYBRID_KERNEL"],
                otherwise: optimized && CompiledModel.hybridDepthwiseKernelPath != "scalar"),
            conv1x1: choice(
                ["VISION_TASKS_CONV1X1_KERNEL"], otherwise: optimized && CompiledModel.conv1x1KernelPreferred),
            hybridConv: choice(
                ["VISION_TASKS_HYBRID_CONV_KERNEL"] + (hybridExact ? ["VISION_TASKS_CONV1X1_KERNEL"] : []),
                otherwise: hybridExact),
            fusions: choice(["VISION_TASKS_FUSED_KERNELS"], otherwise: true),
            depthwise: choice(
                ["VISION_TASKS_DEPTHWISE_KERNEL"],
                otherwise: optimized && CompiledModel.quantizedDepthwiseKernelPreferred),
            postProcess: choice(["VISION_TASKS_POSTPROCESS_KERNEL"], otherwise: optimized),
            int8SpatialConv: choice(["VISION_TASKS_INT8_SPATIAL_KERNEL"], otherwise: false),
            requantize: choice(["VISION_TASKS_REQUANTIZE_KERNEL"], otherwise: optimized))
    }

    /// This choice with the kernels named changed (the others as they are).
    package func with(
        hybridDepthwise: Bool? = nil, conv1x1: Bool? = nil, hybridConv: Bool? = nil, fusions: Bool? = nil,
        depthwise: Bool? = nil, postProcess: Bool? = nil, int8SpatialConv: Bool? = nil, requantize: Bool? = nil
    ) -> KernelChoice {
        var c = self
        c.hybridDepthwise = hybridDepthwise ?? c.hybridDepthwise
        c.conv1x1 = conv1x1 ?? c.conv1x1
        c.hybridConv = hybridConv ?? c.hybridConv
        c.fusions = fusions ?? c.fusions
        c.depthwise = depthwise ?? c.depthwise
        c.postProcess = postProcess ?? c.postProcess
        c.int8SpatialConv = int8SpatialConv ?? c.int8SpatialConv
        c.requantize = requantize ?? c.requantize
        return c
    }

    /// The model rewrites this choice makes (`hybridDepthwise` only when the hybrid filters are not
    /// dequantized for speed: `optimizeHybridModels`).
    package func customKernels(optimizeHybridModels: Bool) -> ModelFile.CustomKernels {
        var kernels: ModelFile.CustomKernels = conv1x1 ? [.quantizedConv, .quantizedSpatialConv] : []
        if conv1x1 && int8SpatialConv { kernels.insert(.int8SpatialConv) }
        if conv1x1 && hybridConv {
            kernels.insert(.hybridConv)
            if fusions {
                kernels.formUnion([.hybridConvGroups, .linkedRanges])
                if CompiledModel.convDepthwiseFusionExact { kernels.insert(.hybridConvDepthwise) }
            }
        }
        if depthwise { kernels.insert(.quantizedDepthwise) }
        if postProcess { kernels.insert(.detectionPostProcess) }
        if requantize { kernels.insert(.requantize) }
        if hybridDepthwise && !optimizeHybridModels { kernels.insert(.hybridDepthwise) }
        return kernels
    }

    /// The kernels on, by name (`builtin` when none).
    package var description: String {
        let on = [
            ("hybrid-depthwise", hybridDepthwise), ("conv1x1", conv1x1), ("hybrid-conv", conv1x1 && hybridConv),
            ("fusions", conv1x1 && hybridConv && fusions), ("int8-spatial", conv1x1 && int8SpatialConv),
            ("depthwise", depthwise), ("postprocess", postProcess), ("requantize", requantize),
        ].filter(\.1).map(\.0)
        return on.isEmpty ? "builtin" : on.joined(separator: ", ")
    }
}
