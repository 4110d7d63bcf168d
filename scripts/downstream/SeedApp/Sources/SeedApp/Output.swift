import Foundation
import MLKit
import MediaPipeTasksVision

/// What the app prints: one JSON object per line, compared with MediaPipe's goldens by check.sh.
enum Output {
    static func detections(_ detections: [Detection]) -> [[String: Any]] {
        detections.map { d in
            let b = d.boundingBox
            return [
                "box": [Int(b.origin.x), Int(b.origin.y), Int(b.size.width), Int(b.size.height)],
                "categories": categories(d.categories),
            ]
        }
    }

    static func categories(_ categories: [ResultCategory]) -> [[String: Any]] {
        categories.map { ["index": $0.index, "name": $0.categoryName ?? NSNull(), "score": Double($0.score)] }
    }

    static func objects(_ objects: [Object]) -> [[String: Any]] {
        objects.map { o in
            [
                "frame": [
                    Int(o.frame.origin.x), Int(o.frame.origin.y), Int(o.frame.size.width), Int(o.frame.size.height),
                ],
                "labels": o.labels.map { ["index": $0.index, "text": $0.text, "confidence": Double($0.confidence)] },
            ]
        }
    }

    static func labels(_ labels: [ImageLabel]) -> [[String: Any]] {
        labels.map { ["index": $0.index, "text": $0.text, "confidence": Double($0.confidence)] }
    }
}

enum JSON {
    static func text(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }
}

struct AppError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
