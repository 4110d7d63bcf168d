import Foundation

/// What Ultralytics' exporter writes about a model: a `metadata.json` in the zip it appends to the
/// `.tflite` (no TFLite metadata flatbuffer) — the class names, the input size, the task, whether
/// the head is NMS-free, the Ultralytics version.
package struct UltralyticsMetadata: Equatable, Sendable {
    /// The entry's name in the appended zip.
    package static let entryName = "metadata.json"

    /// Class names by index (`names`: `{"0": "person", …}`).
    package var names: [Int: String]
    /// The input size the model was exported for, height and width (`imgsz`).
    package var inputSize: (height: Int, width: Int)?
    /// `detect`, `segment`, `pose`, `obb`, `classify`.
    package var task: String?
    /// The head gives final detections (x1, y1, x2, y2, score, class): no NMS to run (`end2end`).
    package var endToEnd: Bool
    /// The largest stride of the head (`stride`).
    package var stride: Int?
    /// The Ultralytics version that exported it (`version`).
    package var version: String?

    package static func == (a: UltralyticsMetadata, b: UltralyticsMetadata) -> Bool {
        a.names == b.names && a.inputSize?.height == b.inputSize?.height && a.inputSize?.width == b.inputSize?.width
            && a.task == b.task
            && a.endToEnd == b.endToEnd && a.stride == b.stride && a.version == b.version
    }

    /// Parses `metadata.json`; throws ``TFLiteModelError`` (`invalidAssociatedFile`) when it is not
    /// a JSON object or its names are not a map of class index to text.
    package init(json bytes: [UInt8]) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw TFLiteModelError(.invalidAssociatedFile, "Ultralytics' \(Self.entryName) is not a JSON object.")
        }
        var names: [Int: String] = [:]
        if let map = object["names"] as? [String: Any] {
            for (key, value) in map {
                guard let index = Int(key), index >= 0, let name = value as? String else {
                    throw TFLiteModelError(
                        .invalidAssociatedFile,
                        "Ultralytics' \(Self.entryName): names must map class indices to text, got \(key): \(value).")
                }
                names[index] = name
            }
        } else if let list = object["names"] as? [Any] {
            for (index, value) in list.enumerated() {
                guard let name = value as? String else {
                    throw TFLiteModelError(
                        .invalidAssociatedFile, "Ultralytics' \(Self.entryName): names must be text.")
                }
                names[index] = name
            }
        }
        self.names = names
        let size = (object["imgsz"] as? [Any])?.compactMap { ($0 as? NSNumber)?.intValue } ?? []
        inputSize = size.count == 2 && size.allSatisfy { $0 > 0 } ? (size[0], size[1]) : nil
        task = object["task"] as? String
        endToEnd = (object["end2end"] as? Bool) ?? false
        stride = (object["stride"] as? NSNumber)?.intValue
        version = object["version"] as? String
    }

    /// The class names in index order, nil when they do not cover 0…n−1 without gaps.
    package var labels: [String]? {
        let ordered = (0..<names.count).compactMap { names[$0] }
        return ordered.count == names.count && !ordered.isEmpty ? ordered : nil
    }
}

extension ModelFile {
    /// Ultralytics' metadata, when the model is one of its exports (nil otherwise).
    package func ultralyticsMetadata() throws -> UltralyticsMetadata? {
        guard let zip = try associatedFiles(), zip.entries.contains(where: { $0.name == UltralyticsMetadata.entryName })
        else { return nil }
        return try UltralyticsMetadata(json: zip.contents(of: UltralyticsMetadata.entryName))
    }
}
