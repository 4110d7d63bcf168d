import FileInput
import Foundation
import VisionCore

extension BaseOptions {
    /// The model these options name (a buffer when given without a path), checked as MediaPipe
    /// does; the GPU delegate is refused.
    func modelResources() throws -> ModelResources {
        guard delegate == .CPU else {
            throw VisionCoreError(
                .unimplemented, "The GPU delegate is not available on Linux. Use Delegate.CPU (the default).",
                fromCore: false)
        }
        let runtime = inferenceRuntime ?? LiteRTRuntime()
        if let buffer = modelAssetBuffer, (modelAssetPath ?? "").isEmpty {
            return try ModelResources(
                data: FileBytes(copying: buffer), runtime: runtime, optimizeHybridModels: optimizeHybridModels)
        }
        return try ModelResources(
            path: modelAssetPath ?? "", runtime: runtime, optimizeHybridModels: optimizeHybridModels)
    }
}
