import Foundation

/// COCO's bounding-box evaluation, computed as pycocotools' `COCOeval` (iouType "bbox") computes it:
/// per image and category, detections sorted by score (stable) and cut to the largest `maxDets`,
/// greedily matched to ground truth at each IoU threshold (.50:.05:.95) — crowd boxes matched by
/// intersection over the detection's area, never used up, and ignored; boxes outside an area range
/// ignored for that range — then precision interpolated at 101 recall points (its monotone envelope,
/// looked up with a left search), averaged over what is defined. `summary` holds the twelve numbers
/// `COCOeval.summarize()` prints, in its order.
public struct COCOEvaluation: Sendable {
    /// The IoU thresholds: 0.50, 0.55, …, 0.95 (numpy's `linspace`, to the last bit).
    public static let iouThresholds = linspace(0.5, 0.95, 10)
    /// The recall points: 0.00, 0.01, …, 1.00.
    public static let recallThresholds = linspace(0, 1, 101)
    /// Detections kept per image for the AR figures; the last is the cut for everything.
    public static let maxDetections = [1, 10, 100]
    /// Area ranges by name (all, small < 32², medium < 96², large), in pixels².
    public static let areaRanges: [(name: String, range: ClosedRange<Double>)] = [
        ("all", 0...1e10), ("small", 0...1024), ("medium", 1024...9216), ("large", 9216...1e10),
    ]

    /// The twelve summary numbers: AP, AP50, AP75, AP small/medium/large, AR@1, AR@10, AR@100, AR
    /// small/medium/large (−1 where nothing is defined, as pycocotools prints it).
    public let summary: [Double]
    /// AP@[.5:.95] (all areas, 100 detections) per category id; −1 for a category with no ground truth.
    public let averagePrecisionByCategory: [Int: Double]
    /// Interpolated precision at the 101 recall points, per IoU threshold (all areas, 100 detections),
    /// averaged over categories — the PR curves; −1 where undefined.
    public let precisionCurves: [[Double]]
    /// The category ids evaluated, ascending.
    public let categoryIds: [Int]
    /// The image ids evaluated, ascending.
    public let imageIds: [Int]

    /// Names of `summary`'s entries.
    public static let summaryNames = [
        "AP", "AP50", "AP75", "APsmall", "APmedium", "APlarge", "AR1", "AR10", "AR100", "ARsmall", "ARmedium",
        "ARlarge",
    ]

    /// Evaluates `detections` against `groundTruth` over `imageIds` (default: every image either
    /// names) and `categoryIds` (default: every ground-truth category).
    public init(
        groundTruth: [GroundTruthBox], detections: [DetectedBox], imageIds: [Int]? = nil, categoryIds: [Int]? = nil
    ) {
        let images = (imageIds ?? Array(Set(groundTruth.map(\.imageId)).union(detections.map(\.imageId))))
            .uniqueSorted()
        let categories = (categoryIds ?? Array(Set(groundTruth.map(\.categoryId)))).uniqueSorted()
        self.imageIds = images
        self.categoryIds = categories
        var gts: [Key: [GroundTruthBox]] = [:], dts: [Key: [DetectedBox]] = [:]
        for g in groundTruth { gts[Key(image: g.imageId, category: g.categoryId), default: []].append(g) }
        for d in detections { dts[Key(image: d.imageId, category: d.categoryId), default: []].append(d) }
        let T = Self.iouThresholds.count, R = Self.recallThresholds.count, A = Self.areaRanges.count,
            M = Self.maxDetections.count
        let K = categories.count
        let cut = Self.maxDetections.last ?? 100
        // precision[t][r][k][a][m], recall[t][k][a][m], flattened.
        var precision = [Double](repeating: -1, count: T * R * K * A * M)
        var recall = [Double](repeating: -1, count: T * K * A * M)
        func pIndex(_ t: Int, _ r: Int, _ k: Int, _ a: Int, _ m: Int) -> Int { (((t * R + r) * K + k) * A + a) * M + m }
        func rIndex(_ t: Int, _ k: Int, _ a: Int, _ m: Int) -> Int { ((t * K + k) * A + a) * M + m }
        for (k, category) in categories.enumerated() {
            // Per image: the detections in score order (stable), cut, and their IoUs with the ground truth.
            var perImage: [(gt: [GroundTruthBox], dt: [DetectedBox], ious: [[Double]])?] = []
            for image in images {
                let key = Key(image: image, category: category)
                let gt = gts[key] ?? [], all = dts[key] ?? []
                if gt.isEmpty && all.isEmpty {
                    perImage.append(nil)
                    continue
                }
                let dt = Array(all.stableSorted { $0.score > $1.score }.prefix(cut))
                perImage.append((gt, dt, dt.map { d in gt.map { g in Self.iou(d.box, g.box, crowd: g.isCrowd) } }))
            }
            for (a, area) in Self.areaRanges.enumerated() {
                let evaluated = perImage.map { $0.map { Self.evaluateImage($0.gt, $0.dt, $0.ious, area: area.range) } }
                    .compactMap { $0 }
                if evaluated.isEmpty { continue }
                for (m, maxDet) in Self.maxDetections.enumerated() {
                    var scores: [Double] = [], matched: [[Bool]] = Array(repeating: [], count: T),
                        ignored: [[Bool]] = Array(repeating: [], count: T)
                    var relevant = 0
                    for e in evaluated {
                        let n = min(maxDet, e.scores.count)
                        scores += e.scores.prefix(n)
                        for t in 0..<T {
                            matched[t] += e.matched[t].prefix(n)
                            ignored[t] += e.ignored[t].prefix(n)
                        }
                        relevant += e.gtIgnored.filter { !$0 }.count
                    }
                    if relevant == 0 { continue }
                    let order = scores.indices.stableSorted { scores[$0] > scores[$1] }
                    for t in 0..<T {
                        // Cumulative sums over every detection in score order (an ignored one repeats the last
                        // sums, as numpy's cumsum of pycocotools' masks does).
                        var fullRc: [Double] = [], fullPr: [Double] = []
                        fullRc.reserveCapacity(order.count)
                        fullPr.reserveCapacity(order.count)
                        var tpc = 0.0, fpc = 0.0
                        for i in order {
                            if !ignored[t][i] { if matched[t][i] { tpc += 1 } else { fpc += 1 } }
                            fullRc.append(tpc / Double(relevant))
                            fullPr.append(tpc / (fpc + tpc + Double.ulpOfOne))
                        }
                        recall[rIndex(t, k, a, m)] = fullRc.last ?? 0
                        var envelope = fullPr
                        if envelope.count > 1 {
                            for i in stride(from: envelope.count - 1, to: 0, by: -1) where envelope[i] > envelope[i - 1]
                            { envelope[i - 1] = envelope[i] }
                        }
                        for (r, threshold) in Self.recallThresholds.enumerated() {
                            let at = Self.searchLeft(fullRc, threshold)
                            if at >= envelope.count { break }  // pycocotools stops filling here (the rest stay 0)
                            precision[pIndex(t, r, k, a, m)] = envelope[at]
                        }
                        // Points past the last reached recall stay 0, not −1.
                        for r in 0..<R where precision[pIndex(t, r, k, a, m)] == -1 {
                            precision[pIndex(t, r, k, a, m)] = 0
                        }
                    }
                }
            }
        }
        func mean(_ values: [Double]) -> Double {
            let defined = values.filter { $0 > -1 }
            return defined.isEmpty ? -1 : defined.reduce(0, +) / Double(defined.count)
        }
        func ap(_ iou: Int?, _ a: Int, _ m: Int, categories ks: Range<Int>? = nil) -> Double {
            var values: [Double] = []
            for t in iou.map({ [$0] }) ?? Array(0..<T) {
                for r in 0..<R { for k in ks ?? 0..<K { values.append(precision[pIndex(t, r, k, a, m)]) } }
            }
            return mean(values)
        }
        func ar(_ a: Int, _ m: Int) -> Double {
            var values: [Double] = []
            for t in 0..<T { for k in 0..<K { values.append(recall[rIndex(t, k, a, m)]) } }
            return mean(values)
        }
        let last = M - 1
        let t50 = Self.iouThresholds.firstIndex(of: 0.5), t75 = Self.iouThresholds.firstIndex(of: 0.75)
        summary = [
            ap(nil, 0, last), ap(t50, 0, last), ap(t75, 0, last), ap(nil, 1, last), ap(nil, 2, last), ap(nil, 3, last),
            ar(0, 0), ar(0, 1), ar(0, last), ar(1, last), ar(2, last), ar(3, last),
        ]
        var byCategory: [Int: Double] = [:]
        for (k, category) in categories.enumerated() {
            byCategory[category] = ap(nil, 0, last, categories: k..<(k + 1))
        }
        averagePrecisionByCategory = byCategory
        precisionCurves = (0..<T).map { t in
            (0..<R).map { r in mean((0..<K).map { precision[pIndex(t, r, $0, 0, last)] }) }
        }
    }

    /// One image and category at one area range: per IoU threshold, each detection's match and
    /// whether it is ignored, and which ground truth is ignored.
    struct ImageResult {
        var scores: [Double]
        var matched: [[Bool]]
        var ignored: [[Bool]]
        var gtIgnored: [Bool]
    }

    static func evaluateImage(
        _ gt: [GroundTruthBox], _ dt: [DetectedBox], _ ious: [[Double]], area: ClosedRange<Double>
    ) -> ImageResult {
        let gtIgnoredOriginal = gt.map { $0.isCrowd || $0.area < area.lowerBound || $0.area > area.upperBound }
        // Ground truth not ignored first (stable), the IoU columns in that order.
        let gtOrder = gt.indices.stableSorted { !gtIgnoredOriginal[$0] && gtIgnoredOriginal[$1] }
        let gtIgnored = gtOrder.map { gtIgnoredOriginal[$0] }
        let crowd = gtOrder.map { gt[$0].isCrowd }
        let T = iouThresholds.count
        var matched = [[Bool]](repeating: [Bool](repeating: false, count: dt.count), count: T)
        var ignored = matched
        for t in 0..<T {
            var gtUsed = [Bool](repeating: false, count: gt.count)
            for d in dt.indices {
                var best = min(iouThresholds[t], 1 - 1e-10)
                var m = -1
                for (g, original) in gtOrder.enumerated() {
                    if gtUsed[g] && !crowd[g] { continue }
                    if m > -1 && !gtIgnored[m] && gtIgnored[g] { break }
                    let o = ious[d][original]
                    if o < best { continue }
                    best = o
                    m = g
                }
                if m == -1 { continue }
                ignored[t][d] = gtIgnored[m]
                matched[t][d] = true
                gtUsed[m] = true
            }
        }
        for d in dt.indices {
            let a = dt[d].box.width * dt[d].box.height
            if a < area.lowerBound || a > area.upperBound {
                for t in 0..<T where !matched[t][d] { ignored[t][d] = true }
            }
        }
        return ImageResult(scores: dt.map(\.score), matched: matched, ignored: ignored, gtIgnored: gtIgnored)
    }

    /// IoU of two x, y, width, height boxes; against a crowd box, the intersection over the detection's area.
    public static func iou(_ d: Box, _ g: Box, crowd: Bool) -> Double {
        let w = min(d.width + d.x, g.width + g.x) - max(d.x, g.x)
        if w <= 0 { return 0 }
        let h = min(d.height + d.y, g.height + g.y) - max(d.y, g.y)
        if h <= 0 { return 0 }
        let i = w * h, da = d.width * d.height, ga = g.width * g.height
        return i / (crowd ? da : da + ga - i)
    }

    /// numpy's `linspace(start, stop, count)`: start + i · step, the last exactly `stop`.
    static func linspace(_ start: Double, _ stop: Double, _ count: Int) -> [Double] {
        let step = (stop - start) / Double(count - 1)
        return (0..<count).map { $0 == count - 1 ? stop : Double($0) * step + start }
    }

    /// numpy's `searchsorted(values, x, side='left')` on ascending values: the first index with values[i] ≥ x.
    static func searchLeft(_ values: [Double], _ x: Double) -> Int {
        var lo = 0, hi = values.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    struct Key: Hashable {
        var image: Int, category: Int
    }
}

extension Array where Element: Comparable & Hashable {
    func uniqueSorted() -> [Element] { Array(Set(self)).sorted() }
}

extension Collection {
    /// Sorted with ties kept in their order (numpy's mergesort).
    func stableSorted(by before: (Element, Element) -> Bool) -> [Element] {
        enumerated().sorted { a, b in
            before(a.element, b.element) || (!before(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
    }
}
