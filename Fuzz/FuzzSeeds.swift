// Seed corpora for the fuzz targets, written by the target itself when FUZZ_WRITE_SEEDS names a
// folder: small valid inputs taken from the shared models and pictures (and the test fixtures), so
// that libFuzzer starts from real structure. Compiled into each target with the module it fuzzes.
import Foundation

enum FuzzSeeds {
    /// The shared assets (VISION_TASKS_ASSETS, default ../shared).
    static var assets: String { ProcessInfo.processInfo.environment["VISION_TASKS_ASSETS"] ?? "../shared" }

    /// When FUZZ_WRITE_SEEDS is set: writes `make()`'s seeds into that folder and exits.
    static func writeIfAsked(_ make: () -> [(String, [UInt8])]) {
        guard let folder = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] else { return }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var written = 0
        for (name, bytes) in make() where FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes)) { written += 1 }
        print("wrote \(written) seeds to \(folder)")
        exit(written > 0 ? 0 : 1)
    }

    static func file(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }
    static let smallModels = ["face_detection_short_range.tflite", "mobilenet_v1_0.25_128_quant.tflite", "face_detection_full_range_sparse.tflite",
                              "ssd_mobilenet_v1_coco_quant_metadata.tflite"]
}
