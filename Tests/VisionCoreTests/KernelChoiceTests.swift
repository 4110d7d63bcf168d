import TFLiteModel
import Testing

@testable import VisionCore

/// The kernel choice: one value from the environment's switches, and the rewrites it makes.
@Suite("kernel choice")
struct KernelChoiceTests {
    @Test(
        "switches: builtin turns a kernel off, ours on; the hybrid 1×1 switch falls back to the 1×1 one on x86-64"
    )
    func switches() {
        let off = KernelChoice(environment: [
            "VISION_TASKS_HYBRID_KERNEL": "builtin", "VISION_TASKS_CONV1X1_KERNEL": "builtin",
            "VISION_TASKS_DEPTHWISE_KERNEL": "builtin", "VISION_TASKS_POSTPROCESS_KERNEL": "builtin",
            "VISION_TASKS_REQUANTIZE_KERNEL": "builtin",
        ])
        #expect(off.description == "builtin")
        #expect(!off.hybridConv, "VISION_TASKS_CONV1X1_KERNEL=builtin also leaves hybrid 1×1 to XNNPACK")
        let on = KernelChoice(environment: [
            "VISION_TASKS_HYBRID_KERNEL": "ours", "VISION_TASKS_CONV1X1_KERNEL": "ours",
            "VISION_TASKS_DEPTHWISE_KERNEL": "ours", "VISION_TASKS_POSTPROCESS_KERNEL": "ours",
            "VISION_TASKS_FUSED_KERNELS": "builtin", "VISION_TASKS_REQUANTIZE_KERNEL": "ours",
        ])
        #if arch(x86_64)
            #expect(
                on
                    == KernelChoice(
                        hybridDepthwise: true, conv1x1: true, hybridConv: true, fusions: false, depthwise: true,
                        postProcess: true, requantize: true))
            #expect(on.description == "hybrid-depthwise, conv1x1, hybrid-conv, depthwise, postprocess, requantize")
        #else
            // The hybrid 1×1 kind reproduces x86-64's arithmetic: the 1×1 switch does not take it along.
            #expect(on.conv1x1 && !on.hybridConv)
            #expect(on.description == "hybrid-depthwise, conv1x1, depthwise, postprocess, requantize")
            #expect(KernelChoice(environment: ["VISION_TASKS_HYBRID_CONV_KERNEL": "ours"]).hybridConv)
        #endif
        #expect(on.customKernels(optimizeHybridModels: false).contains(.requantize))
        #expect(!on.with(requantize: false).customKernels(optimizeHybridModels: false).contains(.requantize))
        let hybridOff = KernelChoice(environment: [
            "VISION_TASKS_CONV1X1_KERNEL": "ours", "VISION_TASKS_HYBRID_CONV_KERNEL": "builtin",
        ])
        #expect(hybridOff.conv1x1 && !hybridOff.hybridConv)
        // int8 spatial convolutions: off by default, on with `ours` (and only with the 1×1 kernel).
        #expect(!KernelChoice(environment: [:]).int8SpatialConv)
        let int8Spatial = KernelChoice(environment: [
            "VISION_TASKS_CONV1X1_KERNEL": "ours", "VISION_TASKS_INT8_SPATIAL_KERNEL": "ours",
        ])
        #expect(int8Spatial.int8SpatialConv && int8Spatial.description.contains("int8-spatial"))
        #expect(int8Spatial.customKernels(optimizeHybridModels: false).contains(.int8SpatialConv))
        #expect(!int8Spatial.with(conv1x1: false).customKernels(optimizeHybridModels: false).contains(.int8SpatialConv))
        // Any other value is the default's.
        #expect(KernelChoice(environment: ["VISION_TASKS_CONV1X1_KERNEL": "maybe"]) == KernelChoice(environment: [:]))
    }

    @Test("the rewrites a choice makes")
    func rewrites() {
        #expect(KernelChoice.builtin.customKernels(optimizeHybridModels: false).isEmpty)
        let all = KernelChoice(
            hybridDepthwise: true, conv1x1: true, hybridConv: true, fusions: false, depthwise: true, postProcess: true)
        #expect(
            all.customKernels(optimizeHybridModels: false)
                == [
                    .quantizedConv, .quantizedSpatialConv, .hybridConv, .quantizedDepthwise, .detectionPostProcess,
                    .hybridDepthwise,
                ])
        // Dequantizing the hybrid filters for speed leaves no hybrid depthwise op to replace.
        #expect(!all.customKernels(optimizeHybridModels: true).contains(.hybridDepthwise))
        // The hybrid 1×1 kernel and its fusions only ride on the 1×1 kernel.
        let noConv = all.with(conv1x1: false, fusions: true)
        #expect(
            noConv.customKernels(optimizeHybridModels: false) == [
                .quantizedDepthwise, .detectionPostProcess, .hybridDepthwise,
            ])
        let fused = all.with(fusions: true).customKernels(optimizeHybridModels: false)
        #expect(fused.isSuperset(of: [.hybridConvGroups, .linkedRanges]))
    }
}
