import Foundation
import MediaPipeTasksVision
import Testing
import VisionTestSupport

/// MediaPipe 1.2.2's results from Tests/Goldens/mediapipe_detector.json, and the comparison rule:
/// same number of detections; each golden detection matched by a distinct one of ours with the same
/// label, box within ±2 px on every side and score within ±0.02 (so ties in any order match).
/// Detections whose score is exactly 0 (a sigmoid that underflowed) all tie; which of them survive
/// non-maximum suppression (and so how many) depends on the unstable sort of MediaPipe's C++
/// library, so they are left out of the comparison; every detection with a positive score is compared.
enum DetectorGolden {
    struct Expected {
        var box: [Int]
        var name: String?
        var score: Float
        var keypoints: [[Double]]
    }

    nonisolated(unsafe) static let results: [String: Any] = {
        ((try? Goldens.dictionary("mediapipe_detector.json"))?["results"] as? [String: Any]) ?? [:]
    }()

    static func expected(model: String, photo: String, case name: String) throws -> [Expected] {
        let key = "\(model)|\(photo)|\(name)"
        let list = try #require(results[key] as? [[String: Any]], "no golden for \(key)")
        return list.map { d in
            let top = (d["categories"] as? [[String: Any]])?.first ?? [:]
            return Expected(
                box: d["box"] as? [Int] ?? [], name: top["name"] as? String,
                score: Float((top["score"] as? Double) ?? -1), keypoints: d["keypoints"] as? [[Double]] ?? [])
        }
    }

    /// How results are compared with MediaPipe's: every detection within ±2 px and ±0.02, on every
    /// architecture. On arm64 the goldens are MediaPipe's aarch64 build's, whose OpenCV normalizes and
    /// resamples with fused multiply-adds, as the preprocessor does there (`ImagePreprocessor`,
    /// `WarpMatrix.fused(_:block:)`): the float models' input tensors are MediaPipe's, upright and turned.
    static let rule: (box: Int, score: Float) = (2, 0.02)

    /// Records an issue for every difference between `result` and the golden; returns the number of issues.
    @discardableResult
    static func check(
        _ result: ObjectDetectorResult, model: String, photo: String, case name: String,
        boxTolerance: Int? = nil, scoreTolerance: Float? = nil
    ) throws -> Int {
        let rule = Self.rule
        let boxTolerance = boxTolerance ?? rule.box, scoreTolerance = scoreTolerance ?? rule.score
        let expected = try expected(model: model, photo: photo, case: name).filter { $0.score != 0 }
        let result = ObjectDetectorResult(
            detections: result.detections.filter { ($0.categories.first?.score ?? 0) != 0 },
            timestampInMilliseconds: result.timestampInMilliseconds)
        var issues = 0
        let context = "\(model) \(photo) \(name)"
        if result.detections.count != expected.count {
            Issue.record("\(context): \(result.detections.count) detections, MediaPipe has \(expected.count)")
            issues += 1
        }
        var used = Set<Int>()
        for e in expected {
            let match = result.detections.indices.first { i in
                guard !used.contains(i), let c = result.detections[i].categories.first else { return false }
                let b = result.detections[i].boundingBox
                let ours = [Int(b.origin.x), Int(b.origin.y), Int(b.size.width), Int(b.size.height)]
                let keypoints = result.detections[i].keypoints ?? []
                let keypointsMatch =
                    keypoints.count == e.keypoints.count
                    && zip(keypoints, e.keypoints).allSatisfy { k, g in
                        g.count == 2 && abs(Double(k.location.x) - g[0]) <= 0.005
                            && abs(Double(k.location.y) - g[1]) <= 0.005
                    }
                return c.categoryName == e.name && abs(c.score - e.score) <= scoreTolerance
                    && zip(ours, e.box).allSatisfy { abs($0 - $1) <= boxTolerance } && keypointsMatch
            }
            if let match {
                used.insert(match)
            } else {
                Issue.record("\(context): no match for MediaPipe's \(e.name ?? "?") \(e.score) at \(e.box)")
                issues += 1
            }
        }
        return issues
    }
}
