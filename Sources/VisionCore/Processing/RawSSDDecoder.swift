import Foundation
import TFLiteModel

/// Decodes a raw SSD detector's two outputs with its `DETECTOR_METADATA` (anchors, scales,
/// exponential box sizes, sigmoid scores; boxes in YXHW order, as MediaPipe's ObjectDetector
/// reads them), then keeps the best boxes with MediaPipe's default non-maximum suppression
/// (IoU > 0.3 suppresses, highest score first).
package struct RawSSDDecoder: Sendable {
    package let anchors: [DetectorMetadata.Anchor]
    package let options: DetectorMetadata.DecodingOptions
    package let suppressionThreshold: Float

    /// A decoded candidate: relative box (upright tensor frame), best class and score, keypoints.
    package struct Candidate: Equatable, Sendable {
        package var xmin: Float, ymin: Float, xmax: Float, ymax: Float
        package var classIndex: Int
        package var score: Float
        package var keypoints: [(x: Float, y: Float)]

        package static func == (a: Candidate, b: Candidate) -> Bool {
            a.xmin == b.xmin && a.ymin == b.ymin && a.xmax == b.xmax && a.ymax == b.ymax && a.classIndex == b.classIndex
                && a.score == b.score && a.keypoints.map(\.x) == b.keypoints.map(\.x)
                && a.keypoints.map(\.y) == b.keypoints.map(\.y)
        }
    }

    /// Checks the metadata against the model's output sizes.
    package init(
        metadata: DetectorMetadata, boxesCount: Int, scoresCount: Int, suppressionThreshold: Float = 0.3
    ) throws {
        guard let options = metadata.decoding else {
            throw VisionCoreError(
                .invalidArgument, "TensorsDecodingOptions is not found in the object detector metadata.")
        }
        guard let anchors = metadata.anchors else {
            throw VisionCoreError(.invalidArgument, "SsdAnchorsOptions is not found in the object detector metadata.")
        }
        let boxes = Int(options.numBoxes), coords = Int(options.numCoords), classes = Int(options.numClasses)
        guard boxes > 0, coords >= 4, classes > 0, anchors.count == boxes else {
            throw VisionCoreError(
                .invalidArgument,
                "The object detector metadata is inconsistent: \(anchors.count) anchors for num_boxes \(boxes), "
                    + "num_coords \(coords), num_classes \(classes)."
            )
        }
        let keypointEnd =
            Int(options.keypointCoordOffset) + Int(options.numKeypoints) * Int(options.numValuesPerKeypoint)
        guard
            options.numKeypoints == 0
                || (options.numKeypoints > 0 && options.keypointCoordOffset >= 0
                    && options.numValuesPerKeypoint >= 2 && keypointEnd <= coords)
        else {
            throw VisionCoreError(
                .invalidArgument, "The object detector metadata's keypoints do not fit in num_coords \(coords).")
        }
        guard boxesCount == boxes * coords, scoresCount == boxes * classes else {
            throw VisionCoreError(
                .invalidArgument,
                "The model's outputs (\(boxesCount) box values, \(scoresCount) scores) do not match the object "
                    + "detector metadata (\(boxes) boxes × \(coords) coordinates, \(classes) classes)."
            )
        }
        self.anchors = anchors
        self.options = options
        self.suppressionThreshold = suppressionThreshold
    }

    /// Decodes every box whose best allowed class scores at least `threshold`.
    package func decode(boxes raw: [Float], scores: [Float], threshold: Float, allowed: (Int) -> Bool) -> [Candidate] {
        let coords = Int(options.numCoords), classes = Int(options.numClasses)
        var out: [Candidate] = []
        for i in 0..<Int(options.numBoxes) {
            var best = -Float.greatestFiniteMagnitude, cls = -1
            for c in 0..<classes where allowed(c) {
                var s = scores[i * classes + c]
                if options.sigmoidScore { s = 1 / (1 + exp(-s)) }
                if best < s { best = s; cls = c }
            }
            guard cls >= 0, best >= threshold else { continue }
            let a = anchors[i], o = i * coords
            var yc = raw[o], xc = raw[o + 1], h = raw[o + 2], w = raw[o + 3]
            xc = xc / options.xScale * a.width + a.xCenter
            yc = yc / options.yScale * a.height + a.yCenter
            if options.applyExponentialOnBoxSize {
                h = exp(h / options.hScale) * a.height
                w = exp(w / options.wScale) * a.width
            } else {
                h = h / options.hScale * a.height
                w = w / options.wScale * a.width
            }
            let ymin = yc - h / 2.0, xmin = xc - w / 2.0, ymax = yc + h / 2.0, xmax = xc + w / 2.0
            let width = xmax - xmin, height = ymax - ymin
            guard width >= 0, height >= 0, !width.isNaN, !height.isNaN else { continue }
            var keypoints: [(x: Float, y: Float)] = []
            for k in 0..<Int(options.numKeypoints) {
                let p = o + Int(options.keypointCoordOffset) + k * Int(options.numValuesPerKeypoint)
                let ky = raw[p], kx = raw[p + 1]
                keypoints.append(
                    (kx / options.xScale * a.width + a.xCenter, ky / options.yScale * a.height + a.yCenter))
            }
            out.append(
                Candidate(
                    xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, classIndex: cls, score: best, keypoints: keypoints))
        }
        return out
    }

    /// IoU of two candidates' boxes, as MediaPipe computes it on its `Rectangle_f`s (corners
    /// rebuilt from xmin + width in float).
    package static func iou(_ a: Candidate, _ b: Candidate) -> Float {
        let aw = a.xmax - a.xmin, ah = a.ymax - a.ymin, bw = b.xmax - b.xmin, bh = b.ymax - b.ymin
        let ax1 = a.xmin + aw, ay1 = a.ymin + ah, bx1 = b.xmin + bw, by1 = b.ymin + bh
        let aEmpty = a.xmin > ax1 || a.ymin > ay1, bEmpty = b.xmin > bx1 || b.ymin > by1
        if aEmpty || bEmpty || bx1 < a.xmin || ax1 < b.xmin || by1 < a.ymin || ay1 < b.ymin { return 0 }
        let ix0 = max(a.xmin, b.xmin), iy0 = max(a.ymin, b.ymin), ix1 = min(ax1, bx1), iy1 = min(ay1, by1)
        let inter = (ix1 - ix0) * (iy1 - iy0)
        let union = (ax1 - a.xmin) * (ay1 - a.ymin) + (bx1 - b.xmin) * (by1 - b.ymin) - inter
        return union > 0 ? inter / union : 0
    }

    /// MediaPipe's default non-maximum suppression: candidates by descending score (equal scores
    /// in anchor order — MediaPipe's unstable C++ sort may order them otherwise); one overlapping
    /// a kept box by more than the threshold is dropped. At most `limit` kept when `limit` > 0.
    package func suppress(_ candidates: [Candidate], limit: Int) -> [Candidate] {
        NonMaximumSuppression.greedy(candidates, score: \.score, limit: limit) {
            !(Self.iou($0, $1) <= suppressionThreshold)
        }
    }
}
