import LiteRT
import VisionCore

/// What this build is and what it runs on: VisionTasks' version, the LiteRT runtime it loads, and the
/// CPU paths its exact kernels take here — what `vision-tasks --version` prints and `serve` logs.
package enum BuildInfo {
    /// VisionTasks' release (the tag a package depends on).
    package static let version = "1.0.0"

    /// The runtime: the pinned ai-edge-litert release and the `libLiteRt.so` found, or why none was.
    package static var runtime: String {
        do {
            return "LiteRT \(LiteRTLibrary.pinnedVersion) (\(try LiteRTLibrary.shared().path))"
        } catch {
            return "LiteRT \(LiteRTLibrary.pinnedVersion): not found (\(error))"
        }
    }

    /// The exact kernels in use (``KernelChoice/standard``: this CPU's defaults and the environment's
    /// switches), their CPU paths on this machine, and whether they were compiled optimized.
    package static var kernels: String {
        "kernels: \(KernelChoice.standard); paths: hybrid depthwise \(CompiledModel.hybridDepthwiseKernelPath), "
            + "8-bit depthwise \(CompiledModel.quantizedDepthwiseKernelPath), "
            + "1×1 \(CompiledModel.conv1x1KernelPath), fused 1×1+depthwise "
            + (CompiledModel.convDepthwiseFusionExact ? CompiledModel.convDepthwiseKernelPath : "off")
            + (CompiledModel.customKernelsOptimized ? "" : "; unoptimized build: LiteRT's kernels by default")
    }

    /// The lines `--version` prints.
    package static var lines: [String] { ["vision-tasks \(version)", runtime, kernels] }
}
