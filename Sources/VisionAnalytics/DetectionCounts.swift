/// Detection counts at one operating point — detections scoring at least `scoreThreshold`, matched
/// at IoU ≥ `iouThreshold` — per category (true positives, false positives, misses; precision,
/// recall, F1) and overall, and a confusion matrix: detections matched to ground truth whatever their
/// classes (greedy, highest score first, each ground truth used once), so that a dog called a cat is
/// one count in row "dog", column "cat"; unmatched detections in the background row, unmatched ground
/// truth in the background column. Crowd boxes are left out.
public struct DetectionCounts: Sendable {
    /// One category's counts.
    public struct Counts: Sendable, Equatable {
        /// Detections that matched a ground-truth box.
        public var truePositives = 0
        /// Detections that matched none.
        public var falsePositives = 0
        /// Ground-truth boxes no detection matched.
        public var misses = 0

        /// All zero.
        public init() {}
        /// True positives over all detections (0 when none).
        public var precision: Double {
            truePositives + falsePositives == 0 ? 0 : Double(truePositives) / Double(truePositives + falsePositives)
        }
        /// True positives over all ground-truth boxes (0 when none).
        public var recall: Double {
            truePositives + misses == 0 ? 0 : Double(truePositives) / Double(truePositives + misses)
        }
        /// The harmonic mean of precision and recall.
        public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    }

    /// One image's boxes at this operating point (class-aware matching, as the counts).
    public struct ImageOutcome: Sendable, Equatable {
        /// Detections matched to ground truth of their category.
        public var truePositives: [DetectedBox] = []
        /// Detections matched to nothing.
        public var falsePositives: [DetectedBox] = []
        /// Ground truth no detection took.
        public var misses: [GroundTruthBox] = []

        /// An empty matrix.
        public init() {}
    }

    /// Detections scoring below this are ignored.
    public let scoreThreshold: Double
    /// A detection matches a ground-truth box of its class overlapping it at least this much.
    public let iouThreshold: Double
    /// Per image id (images with ground truth or detections), which boxes were found, wrong or missed.
    public let byImage: [Int: ImageOutcome]
    /// The categories, ascending; the confusion matrix's rows and columns in this order, then background.
    public let categoryIds: [Int]
    /// The counts per category id.
    public let byCategory: [Int: Counts]
    /// All categories together.
    public let total: Counts
    /// confusion[ground-truth index][detected index], indices into `categoryIds`, `categoryIds.count` = background.
    public let confusion: [[Int]]

    /// Matches `detections` with `groundTruth` at `scoreThreshold` and `iouThreshold`.
    public init(
        groundTruth: [GroundTruthBox], detections: [DetectedBox], categoryIds: [Int]? = nil,
        scoreThreshold: Double = 0.5, iouThreshold: Double = 0.5
    ) {
        let gt = groundTruth.filter { !$0.isCrowd }
        let kept = detections.filter { $0.score >= scoreThreshold }
        let categories = (categoryIds ?? Array(Set(gt.map(\.categoryId)).union(kept.map(\.categoryId)))).uniqueSorted()
        self.scoreThreshold = scoreThreshold
        self.iouThreshold = iouThreshold
        self.categoryIds = categories
        var byCategory: [Int: Counts] = [:]
        for c in categories { byCategory[c] = Counts() }
        // Class-aware: per image and category, greedy by score (boxes grouped once, not filtered per pair).
        let gtByKey = Dictionary(grouping: gt) { COCOEvaluation.Key(image: $0.imageId, category: $0.categoryId) }
        let dtByKey = Dictionary(grouping: kept) { COCOEvaluation.Key(image: $0.imageId, category: $0.categoryId) }
        var byImage: [Int: ImageOutcome] = [:]
        for key in Set(gtByKey.keys).union(dtByKey.keys) where byCategory[key.category] != nil {
            let g = gtByKey[key] ?? [], d = (dtByKey[key] ?? []).stableSorted { $0.score > $1.score }
            let matches = Self.match(d, g, iou: iouThreshold)
            let tp = matches.compactMap { $0 }.count
            byCategory[key.category, default: Counts()].truePositives += tp
            byCategory[key.category, default: Counts()].falsePositives += d.count - tp
            byCategory[key.category, default: Counts()].misses += g.count - tp
            var outcome = byImage[key.image] ?? ImageOutcome()
            let taken = Set(matches.compactMap { $0 })
            for (i, m) in matches.enumerated() {
                if m != nil { outcome.truePositives.append(d[i]) } else { outcome.falsePositives.append(d[i]) }
            }
            outcome.misses += g.indices.filter { !taken.contains($0) }.map { g[$0] }
            byImage[key.image] = outcome
        }
        self.byCategory = byCategory
        self.byImage = byImage
        var total = Counts()
        for counts in byCategory.values {
            total.truePositives += counts.truePositives
            total.falsePositives += counts.falsePositives
            total.misses += counts.misses
        }
        self.total = total
        // Class-agnostic, for the confusion matrix.
        let index = Dictionary(uniqueKeysWithValues: categories.enumerated().map { ($1, $0) })
        let background = categories.count
        var confusion = [[Int]](
            repeating: [Int](repeating: 0, count: categories.count + 1), count: categories.count + 1)
        let gtByImage = Dictionary(grouping: gt.filter { index[$0.categoryId] != nil }, by: \.imageId)
        let dtByImage = Dictionary(grouping: kept.filter { index[$0.categoryId] != nil }, by: \.imageId)
        for image in Set(gtByImage.keys).union(dtByImage.keys) {
            let g = gtByImage[image] ?? []
            let d = (dtByImage[image] ?? []).stableSorted { $0.score > $1.score }
            let matches = Self.match(d, g, iou: iouThreshold)
            var used = Set<Int>()
            for (i, m) in matches.enumerated() {
                let detected = index[d[i].categoryId] ?? background
                if let m {
                    used.insert(m)
                    confusion[index[g[m].categoryId] ?? background][detected] += 1
                } else {
                    confusion[background][detected] += 1
                }
            }
            for (j, box) in g.enumerated() where !used.contains(j) {
                confusion[index[box.categoryId] ?? background][background] += 1
            }
        }
        self.confusion = confusion
    }

    /// For each detection (in order), the ground truth it takes: the unused one with the highest IoU
    /// at or above `iou`, or nil.
    static func match(_ detections: [DetectedBox], _ truth: [GroundTruthBox], iou: Double) -> [Int?] {
        var used = [Bool](repeating: false, count: truth.count)
        return detections.map { d in
            var best = -1, bestIoU = iou
            for (j, g) in truth.enumerated() where !used[j] {
                let o = COCOEvaluation.iou(d.box, g.box, crowd: false)
                if o >= bestIoU && (best == -1 || o > bestIoU) {
                    best = j
                    bestIoU = o
                }
            }
            guard best >= 0 else { return nil }
            used[best] = true
            return best
        }
    }
}
