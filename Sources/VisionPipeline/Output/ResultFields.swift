import Foundation
import MLKit
import MediaPipeTasksVision

/// The JSON of the API's result types, with the types' own field names.
package enum ResultFields {
    package static func rect(_ r: CGRect) -> JSONValue {
        .object([
            ("originX", .number(Double(r.origin.x))), ("originY", .number(Double(r.origin.y))),
            ("width", .number(Double(r.size.width))), ("height", .number(Double(r.size.height))),
        ])
    }

    package static func category(_ c: ResultCategory) -> JSONValue {
        var f: [(String, JSONValue)] = [("index", .int(c.index)), ("score", .float(c.score))]
        f.append(("categoryName", c.categoryName.map { JSONValue.string($0) } ?? .null))
        f.append(("displayName", c.displayName.map { JSONValue.string($0) } ?? .null))
        return .object(f)
    }

    package static func detections(_ r: ObjectDetectorResult) -> JSONValue {
        .array(
            r.detections.map { d in
                var f: [(String, JSONValue)] = [
                    ("boundingBox", rect(d.boundingBox)), ("categories", .array(d.categories.map(category))),
                ]
                if let k = d.keypoints {
                    f.append(
                        (
                            "keypoints",
                            .array(
                                k.map { p in
                                    .object([
                                        ("x", .number(Double(p.location.x))), ("y", .number(Double(p.location.y))),
                                        ("label", p.label.map { JSONValue.string($0) } ?? .null),
                                        ("score", .float(p.score)),
                                    ])
                                })
                        ))
                }
                return .object(f)
            })
    }

    package static func classifications(_ r: ImageClassifierResult) -> JSONValue {
        .array(
            r.classificationResult.classifications.map { c in
                .object([
                    ("headIndex", .int(c.headIndex)), ("headName", c.headName.map { JSONValue.string($0) } ?? .null),
                    ("categories", .array(c.categories.map(category))),
                ])
            })
    }

    package static func label(text: String, confidence: Float, index: Int) -> JSONValue {
        .object([("text", .string(text)), ("confidence", .float(confidence)), ("index", .int(index))])
    }

    package static func labels(_ labels: [ImageLabel]) -> JSONValue {
        .array(labels.map { label(text: $0.text, confidence: $0.confidence, index: $0.index) })
    }

    /// ML Kit objects; with `zones`, each object's zones (by name) as a `zones` field.
    package static func objects(_ objects: [Object], zones: [[String]]? = nil) -> JSONValue {
        .array(
            objects.enumerated().map { k, o in
                var fields: [(String, JSONValue)] = [
                    ("frame", rect(o.frame)), ("trackingID", o.trackingID.map { .int($0.intValue) } ?? .null),
                    (
                        "labels",
                        .array(o.labels.map { label(text: $0.text, confidence: $0.confidence, index: $0.index) })
                    ),
                ]
                if let zones, k < zones.count { fields.append(("zones", .array(zones[k].map { .string($0) }))) }
                return .object(fields)
            })
    }

    /// `name 87%`: a category's display name (else its name, else its index) and score.
    package static func caption(_ c: ResultCategory) -> String {
        let name =
            c.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? c.categoryName.flatMap { $0.isEmpty ? nil : $0 }
            ?? "#\(c.index)"
        return String(format: "%@ %.0f%%", name, c.score * 100)
    }
}
