import Foundation
import MLKit
import VisionPipeline

/// The official MediaPipe models and photos a user can fetch (`vision-tasks models`), pinned by
/// URL and sha256 as MediaPipe's own build pins them (the table of `docs/model-zoo.md`; a test
/// keeps the two equal), and the cache they are fetched into.
enum ModelZoo {
    struct Entry: Equatable {
        let name: String
        let kind: String
        let sha256: String
        let url: String
    }

    static let base = "https://storage.googleapis.com/mediapipe-assets/tasks/testdata/vision/"

    /// The official entries, then those of the catalog file `VISION_TASKS_MODEL_CATALOG` names (a
    /// team's own models: one `name<TAB>kind<TAB>sha256<TAB>url` per line, `#` comments).
    static func entries() throws -> [Entry] {
        official + (try catalog(ProcessInfo.processInfo.environment["VISION_TASKS_MODEL_CATALOG"]))
    }

    /// The entries of a catalog file; an unreadable file or a line that is not 4 tab-separated fields
    /// with a 64-digit sha256 is an error naming the file and line.
    static func catalog(_ path: String?) throws -> [Entry] {
        guard let path, !path.isEmpty else { return [] }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CLIError.failure("cannot read the model catalog \(path) (VISION_TASKS_MODEL_CATALOG)")
        }
        var out: [Entry] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.isEmpty || t.hasPrefix("#") { continue }
            let f = t.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
            guard f.count == 4, f[2].count == 64, f[2].allSatisfy(\.isHexDigit), !f[0].contains("/") else {
                throw CLIError.failure("\(path):\(n + 1): expected name<TAB>kind<TAB>sha256<TAB>url")
            }
            out.append(Entry(name: f[0], kind: f[1], sha256: f[2].lowercased(), url: f[3]))
        }
        return out
    }

    static let official: [Entry] = [
        Entry(
            name: "coco_efficientdet_lite0_v1_1.0_quant_2021_09_06.tflite", kind: "detector, metadata",
            sha256: "dee1b4af055a644804d5594442300ecc9e4f7080c25b7c044c98f527eeabb6cf",
            url: base + "coco_efficientdet_lite0_v1_1.0_quant_2021_09_06.tflite?generation=1782184527668231"),
        Entry(
            name: "coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite", kind: "detector, metadata",
            sha256: "61d598093ed03ed41aa47c3a39a28ac01e960d6a810a5419b9a5016a1e9c469b",
            url: base + "coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite?generation=1782184535239215"),
        Entry(
            name: "efficientdet_lite0_fp16_no_nms.tflite", kind: "raw SSD detector, metadata",
            sha256: "237a58389081333e5cf4154e42b593ce7dd357445536fcaf4ca5bc51c2c50f1c",
            url: base + "efficientdet_lite0_fp16_no_nms.tflite?generation=1782184572419696"),
        Entry(
            name: "mobilenet_v2_1.0_224.tflite", kind: "float classifier, metadata",
            sha256: "ff5cb7f9e62c92ebdad971f8a98aa6b3106d82a64587a7787c6a385c9e791339",
            url: base + "mobilenet_v2_1.0_224.tflite?generation=1782184975266616"),
        Entry(
            name: "mobilenet_v1_0.25_224_quant.tflite", kind: "uint8 classifier, metadata",
            sha256: "e480eb15572f86d3d5f1be6e83e35b3c7d509ab2bcec353707d1f614e14edca2",
            url: base + "mobilenet_v1_0.25_224_quant.tflite?generation=1782184952510639"),
        Entry(
            name: "cats_and_dogs.jpg", kind: "sample photo",
            sha256: "a2eaa7ad3a1aae4e623dd362a5f737e8a88d122597ecd1a02b3e1444db56df9c",
            url: base + "cats_and_dogs.jpg?generation=1782184491144775"),
        Entry(
            name: "burger.jpg", kind: "sample photo",
            sha256: "97c15bbbf3cf3615063b1031c85d669de55839f59262bbe145d15ca75b36ecbf",
            url: base + "burger.jpg?generation=1782184424868164"),
        Entry(
            name: "multi_objects.jpg", kind: "sample photo",
            sha256: "ada6e36b40519cf0a4fbdf1b535de7fa7d0c472f2c0a08ada8ee5728e16c0c68",
            url: base + "multi_objects.jpg?generation=1782185019846965"),
    ]

    /// `$XDG_CACHE_HOME/vision-tasks`, else `~/.cache/vision-tasks`.
    static func cacheDirectory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("vision-tasks")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/vision-tasks")
    }

    /// The entry called `name` (with or without its extension).
    static func entry(_ name: String) throws -> Entry? {
        try entries().first { $0.name == name || ($0.name as NSString).deletingPathExtension == name }
    }

    /// A `--model` value as a path: an existing file as it is; else a fetched model's cached file;
    /// an official model not fetched yet is a usage error that says how to fetch it.
    static func resolve(_ model: String) throws -> String {
        if FileManager.default.fileExists(atPath: model) { return model }
        guard !model.contains("/"), let e = try entry(model) else { return model }  // the task reports "not found"
        let cached = cacheDirectory().appendingPathComponent(e.name).path
        guard FileManager.default.fileExists(atPath: cached) else {
            throw CLIError.usage("model '\(model)' is not fetched yet: run 'vision-tasks models fetch \(e.name)'")
        }
        return cached
    }

    /// The download URL of `e`, from `mirror` (a base URL standing in for MediaPipe's bucket) when given.
    static func url(_ e: Entry, mirror: String?) -> URL? {
        guard let mirror else { return URL(string: e.url) }
        return URL(string: (mirror.hasSuffix("/") ? mirror : mirror + "/") + e.name)
    }

    /// Fetches `e` into the cache (sha256-checked, resumable); returns its path.
    static func fetch(_ e: Entry, mirror: String?) throws -> String {
        guard let url = url(e, mirror: mirror) else { throw CLIError.usage("bad mirror URL '\(mirror ?? "")'") }
        return try ModelDownloader(cacheDirectory: cacheDirectory()).download(
            from: url, sha256: e.sha256, fileName: e.name
        ).path
    }
}
