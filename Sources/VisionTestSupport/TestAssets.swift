import Foundation

/// Where tests find the shared models and photos: `$VISION_TASKS_ASSETS`, else `../shared` next to
/// this package. With `CI=true`, tests that need them run (and fail) even when they are missing.
package enum TestAssets {
    /// The package's root directory.
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The assets directory.
    package static var root: String {
        if let env = ProcessInfo.processInfo.environment["VISION_TASKS_ASSETS"], !env.isEmpty { return env }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared").path
    }

    /// The `vision-tasks` executable the tests run: `$VISION_TASKS_CLI` (e.g. an aarch64 build run by
    /// `make arm64`), else this package's debug build.
    package static var cli: String {
        if let env = ProcessInfo.processInfo.environment["VISION_TASKS_CLI"], !env.isEmpty { return env }
        return packageRoot.appendingPathComponent(".build/debug/vision-tasks").path
    }

    /// Whether this run is CI (`CI=true`).
    package static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
    /// True when the suite runs under a sanitizer (`make sanitize` sets VISION_TASKS_SANITIZER), whose
    /// allocator keeps freed memory in quarantine: memory-growth checks do not apply then.
    package static var underSanitizer: Bool { ProcessInfo.processInfo.environment["VISION_TASKS_SANITIZER"] != nil }

    /// True where VisionTasks' x86-64-only kernels (hybrid and 8-bit depthwise, the hybrid 1×1) and
    /// LiteRT's own compute alike: they are copies of XNNPACK's x86-64 arithmetic. On arm64, XNNPACK's
    /// NEON kernels requantize and accumulate with other roundings, and those ops stay LiteRT's (the 8-bit
    /// 1×1 kernel, which has aarch64's arithmetic too, is tested on both).
    package static var exactKernelsMatchRuntime: Bool {
        #if arch(x86_64)
            return true
        #else
            return false
        #endif
    }

    /// True when the shared assets are present.
    package static var present: Bool {
        FileManager.default.fileExists(atPath: model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
    }

    /// Run asset tests when the assets are there, and always on CI (where their absence is a failure).
    package static var shouldRun: Bool { present || isCI }

    package static func model(_ name: String) -> String { root + "/models/" + name }
    package static func image(_ name: String) -> String { root + "/images/" + name }

    /// The models in the shared folder.
    package static let modelNames = [
        "aiy_vision_classifier_birds_V1_3.tflite", "face_detection_full_range_sparse.tflite",
        "face_detection_short_range.tflite",
        "mobilenet_v1_0.25_128_quant.tflite", "mobilenet_v2_1.0_224_inat_bird_quant.tflite",
        "mobilenet_v2_1.0_224_quant.tflite",
        "ssd_mobilenet_v1_coco_quant_metadata.tflite", "ssd_mobilenet_v1_coco_quant_no_metadata.tflite",
        "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite",
        "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_no_metadata.tflite",
    ]

    /// The photos in the shared folder.
    package static let photoNames = [
        "bird.png", "cat_720p.jpg", "dog.jpg", "face.jpg", "giraffe.jpg", "grace_hopper.png",
        "owl.jpg", "person.jpg", "pets.jpg",
    ]

    /// Reads a file's bytes, or throws a message naming it.
    package static func bytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TestSupportError("cannot read \(path) — set VISION_TASKS_ASSETS to the shared folder")
        }
        return [UInt8](data)
    }
}
