import Foundation

/// A detection dataset in COCO's JSON form (`images`, `categories`, `annotations`), or a results
/// list in COCO's results form (`[{image_id, category_id, bbox, score}]`), read into the evaluation's
/// types. Images are known by id and by file name.
public struct COCODataset: Sendable {
    /// Image id → file name.
    public var images: [Int: String]
    /// Category id → name.
    public var categories: [Int: String]
    /// The ground-truth boxes.
    public var annotations: [GroundTruthBox]

    /// A dataset of these images (id → file name), categories (id → name) and boxes.
    public init(images: [Int: String], categories: [Int: String], annotations: [GroundTruthBox]) {
        self.images = images
        self.categories = categories
        self.annotations = annotations
    }

    /// Reads a COCO ground-truth file's bytes.
    public init(json data: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw AnalyticsError(.badInput, "A COCO file is a JSON object with images, categories and annotations.")
        }
        var images: [Int: String] = [:], categories: [Int: String] = [:], annotations: [GroundTruthBox] = []
        for (i, image) in (root["images"] as? [[String: Any]] ?? []).enumerated() {
            guard let id = Self.int(image["id"]) else {
                throw AnalyticsError(.badInput, "images[\(i)] has no integer id.")
            }
            images[id] = image["file_name"] as? String ?? "\(id)"
        }
        for (i, category) in (root["categories"] as? [[String: Any]] ?? []).enumerated() {
            guard let id = Self.int(category["id"]) else {
                throw AnalyticsError(.badInput, "categories[\(i)] has no integer id.")
            }
            categories[id] = category["name"] as? String ?? "\(id)"
        }
        for (i, a) in (root["annotations"] as? [[String: Any]] ?? []).enumerated() {
            guard let image = Self.int(a["image_id"]), let category = Self.int(a["category_id"]),
                let box = Self.box(a["bbox"])
            else {
                throw AnalyticsError(
                    .badInput, "annotations[\(i)] needs image_id, category_id and bbox [x, y, width, height].")
            }
            guard images[image] != nil else {
                throw AnalyticsError(.badInput, "annotations[\(i)] names image \(image), which images does not list.")
            }
            let crowd = (Self.int(a["iscrowd"]) ?? 0) != 0
            annotations.append(
                GroundTruthBox(
                    imageId: image, categoryId: category, box: box, area: Self.double(a["area"]), isCrowd: crowd))
        }
        self.init(images: images, categories: categories, annotations: annotations)
    }

    /// Reads a COCO results file's bytes: detections of images of this dataset.
    public func results(json data: Data) throws -> [DetectedBox] {
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw AnalyticsError(
                .badInput, "A COCO results file is a JSON list of {image_id, category_id, bbox, score}.")
        }
        return try list.enumerated().map { i, r in
            guard let image = Self.int(r["image_id"]), let category = Self.int(r["category_id"]),
                let box = Self.box(r["bbox"]),
                let score = Self.double(r["score"])
            else { throw AnalyticsError(.badInput, "results[\(i)] needs image_id, category_id, bbox and score.") }
            guard images[image] != nil else {
                throw AnalyticsError(
                    .badInput, "results[\(i)] names image \(image), which the ground truth does not list.")
            }
            return DetectedBox(imageId: image, categoryId: category, box: box, score: score)
        }
    }

    static func int(_ v: Any?) -> Int? {
        guard let d = (v as? NSNumber)?.doubleValue, d == d.rounded(), abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    static func double(_ v: Any?) -> Double? { (v as? NSNumber).map(\.doubleValue).flatMap { $0.isFinite ? $0 : nil } }

    static func box(_ v: Any?) -> Box? {
        guard let a = v as? [Any], a.count == 4 else { return nil }
        let n = a.compactMap(double)
        guard n.count == 4 else { return nil }
        return Box(x: n[0], y: n[1], width: n[2], height: n[3])
    }
}
