import Assignment
import Foundation

/// A tracker scored against ground truth on one sequence, as TrackEval computes it (its HOTA, CLEAR
/// and Identity metrics on box IoU): HOTA with DetA, AssA, LocA (means over the 19 thresholds
/// 0.05…0.95), MOTA, MOTP, ID switches, fragmentations, mostly tracked/lost, and IDF1 with IDP/IDR.
/// IDs are whatever integers the files use; frames with nothing in them count for nothing.
public struct TrackingEvaluation: Sendable {
    /// Higher Order Tracking Accuracy: √(DetA × AssA) at each IoU threshold, averaged over the thresholds; 0…1.
    public let hota: Double
    /// Detection accuracy: TP / (TP + FN + FP) of the HOTA matching, averaged over the thresholds; 0…1.
    public let detA: Double
    /// Association accuracy: over the matched boxes, the mean Jaccard index TPA / (TPA + FNA + FPA) of their
    /// ground-truth and tracker tracks, averaged over the thresholds; 0…1.
    public let assA: Double
    /// Localization accuracy: the mean IoU of the HOTA-matched boxes, averaged over the thresholds; 0…1.
    public let locA: Double
    /// Detection recall: TP / (TP + FN) of the HOTA matching, averaged over the thresholds; 0…1.
    public let detRe: Double
    /// Detection precision: TP / (TP + FP) of the HOTA matching, averaged over the thresholds; 0…1.
    public let detPr: Double
    /// Association recall: the mean TPA / (TPA + FNA) over matched boxes, averaged over the thresholds; 0…1.
    public let assRe: Double
    /// Association precision: the mean TPA / (TPA + FPA) over matched boxes, averaged over the thresholds; 0…1.
    public let assPr: Double
    /// HOTA at each threshold 0.05, 0.10, …, 0.95.
    public let hotaByThreshold: [Double]
    /// CLEAR MOT accuracy: (TP − FP − ID switches) / ground-truth boxes, i.e. 1 − (misses + FP + IDSW) / GT;
    /// at most 1, negative when the errors outnumber the ground truth.
    public let mota: Double
    /// CLEAR MOT precision: the mean IoU of the CLEAR matches (IoU ≥ 0.5); 0…1, higher is better.
    public let motp: Double
    /// CLEAR matches: ground-truth boxes matched to a tracker box with IoU ≥ 0.5, summed over frames (a count).
    public let truePositives: Int
    /// Tracker boxes left unmatched by the CLEAR matching (a count).
    public let falsePositives: Int
    /// Ground-truth boxes left unmatched by the CLEAR matching, i.e. false negatives (a count).
    public let misses: Int
    /// Matches whose tracker ID differs from the one the ground-truth track was last matched to (a count).
    public let idSwitches: Int
    /// Fragmentations: times a ground-truth track is matched again after a gap in its matching (a count).
    public let fragmentations: Int
    /// Ground-truth tracks matched in more than 80% of their frames (a count of tracks).
    public let mostlyTracked: Int
    /// Ground-truth tracks matched in 20% to 80% of their frames (a count of tracks).
    public let partlyTracked: Int
    /// Ground-truth tracks matched in less than 20% of their frames (a count of tracks).
    public let mostlyLost: Int
    /// Identity F1: IDTP / (IDTP + ½ IDFP + ½ IDFN) under the best one-to-one track assignment; 0…1.
    public let idf1: Double
    /// Identity precision: IDTP / (IDTP + IDFP); 0…1.
    public let idPrecision: Double
    /// Identity recall: IDTP / (IDTP + IDFN); 0…1.
    public let idRecall: Double
    /// Identity true positives: boxes matched (IoU ≥ 0.5) to the tracker track their ground-truth track is assigned
    /// to by the one-to-one assignment that maximizes them (a count).
    public let idTruePositives: Int
    /// Identity false positives: tracker boxes not counted in ``idTruePositives`` (a count).
    public let idFalsePositives: Int
    /// Identity false negatives: ground-truth boxes not counted in ``idTruePositives`` (a count).
    public let idFalseNegatives: Int

    /// HOTA's thresholds: numpy's `arange(0.05, 0.99, 0.05)`.
    static let alphas: [Double] = {
        let delta = (0.05 + 0.05) - 0.05
        return (0..<19).map { $0 == 0 ? 0.05 : 0.05 + Double($0) * delta }
    }()
    static let eps = Double.ulpOfOne

    /// One frame: the ground truth's and the tracker's contiguous ID indices and their IoUs.
    struct Frame {
        var gt: [Int]
        var tracker: [Int]
        var similarity: [[Double]]
    }

    /// Scores `tracks` against `groundTruth` (both over the same frames).
    public init(groundTruth: [TrackedBox], tracks: [TrackedBox]) {
        let gtIds = Array(Set(groundTruth.map(\.id))).sorted(), trIds = Array(Set(tracks.map(\.id))).sorted()
        let gtIndex = Dictionary(uniqueKeysWithValues: gtIds.enumerated().map { ($1, $0) })
        let trIndex = Dictionary(uniqueKeysWithValues: trIds.enumerated().map { ($1, $0) })
        let gtByFrame = Dictionary(grouping: groundTruth, by: \.frame),
            trByFrame = Dictionary(grouping: tracks, by: \.frame)
        let frameNumbers = Set(gtByFrame.keys).union(trByFrame.keys).sorted()
        let frames = frameNumbers.map { f -> Frame in
            let g = gtByFrame[f] ?? [], t = trByFrame[f] ?? []
            return Frame(
                gt: g.compactMap { gtIndex[$0.id] }, tracker: t.compactMap { trIndex[$0.id] },
                similarity: g.map { a in t.map { b in Self.iou(a.box, b.box) } })
        }
        let G = gtIds.count, T = trIds.count
        let gtDets = groundTruth.count, trDets = tracks.count

        // --- HOTA ---
        let A = Self.alphas.count
        var tp = [Double](repeating: 0, count: A), fn = tp, fp = tp, loc = tp, assA = tp, assRe = tp, assPr = tp
        if trDets == 0 || gtDets == 0 {
            fn = [Double](repeating: Double(gtDets), count: A)
            fp = [Double](repeating: Double(trDets), count: A)
            loc = [Double](repeating: 1, count: A)
        } else {
            var potential = [[Double]](repeating: [Double](repeating: 0, count: T), count: G)
            var gtCount = [Double](repeating: 0, count: G), trCount = [Double](repeating: 0, count: T)
            for f in frames {
                let s = f.similarity
                let colSums = (0..<f.tracker.count).map { j in s.reduce(0) { $0 + $1[j] } }
                let rowSums = s.map { $0.reduce(0, +) }
                for i in f.gt.indices {
                    for j in f.tracker.indices {
                        let denom = colSums[j] + rowSums[i] - s[i][j]
                        if denom > 0 + Self.eps { potential[f.gt[i]][f.tracker[j]] += s[i][j] / denom }
                    }
                }
                for g in f.gt { gtCount[g] += 1 }
                for t in f.tracker { trCount[t] += 1 }
            }
            var alignment = potential
            for g in 0..<G {
                for t in 0..<T { alignment[g][t] = potential[g][t] / (gtCount[g] + trCount[t] - potential[g][t]) }
            }
            var matches = [[[Double]]](
                repeating: [[Double]](repeating: [Double](repeating: 0, count: T), count: G), count: A)
            for f in frames {
                if f.gt.isEmpty {
                    for a in 0..<A { fp[a] += Double(f.tracker.count) }
                    continue
                }
                if f.tracker.isEmpty {
                    for a in 0..<A { fn[a] += Double(f.gt.count) }
                    continue
                }
                let score = f.gt.indices.map { i in
                    f.tracker.indices.map { j in -(alignment[f.gt[i]][f.tracker[j]] * f.similarity[i][j]) }
                }
                let pairs = LinearAssignment.solve(score)
                for (a, alpha) in Self.alphas.enumerated() {
                    let kept = pairs.filter { f.similarity[$0.row][$0.column] >= alpha - Self.eps }
                    tp[a] += Double(kept.count)
                    fn[a] += Double(f.gt.count - kept.count)
                    fp[a] += Double(f.tracker.count - kept.count)
                    for p in kept {
                        loc[a] += f.similarity[p.row][p.column]
                        matches[a][f.gt[p.row]][f.tracker[p.column]] += 1
                    }
                }
            }
            for a in 0..<A {
                var sumA = 0.0, sumRe = 0.0, sumPr = 0.0
                for g in 0..<G {
                    for t in 0..<T {
                        let m = matches[a][g][t]
                        if m == 0 { continue }
                        sumA += m * (m / max(1, gtCount[g] + trCount[t] - m))
                        sumRe += m * (m / max(1, gtCount[g]))
                        sumPr += m * (m / max(1, trCount[t]))
                    }
                }
                assA[a] = sumA / max(1, tp[a])
                assRe[a] = sumRe / max(1, tp[a])
                assPr[a] = sumPr / max(1, tp[a])
            }
            loc = (0..<A).map { max(1e-10, loc[$0]) / max(1e-10, tp[$0]) }
        }
        let detReA = (0..<A).map { tp[$0] / max(1, tp[$0] + fn[$0]) }
        let detPrA = (0..<A).map { tp[$0] / max(1, tp[$0] + fp[$0]) }
        let detAA = (0..<A).map { tp[$0] / max(1, tp[$0] + fn[$0] + fp[$0]) }
        let hotaA = (0..<A).map { (detAA[$0] * assA[$0]).squareRoot() }
        func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }
        hotaByThreshold = hotaA
        hota = mean(hotaA)
        detA = mean(detAA)
        self.assA = mean(assA)
        locA = mean(loc)
        detRe = mean(detReA)
        detPr = mean(detPrA)
        self.assRe = mean(assRe)
        self.assPr = mean(assPr)

        // --- CLEAR ---
        var clrTP = 0, clrFN = 0, clrFP = 0, idsw = 0, motpSum = 0.0
        var mt = 0, pt = 0, ml = 0, frag = 0
        if trDets == 0 {
            clrFN = gtDets
            ml = G
        } else if gtDets == 0 {
            clrFP = trDets
        } else {
            var gtCount = [Int](repeating: 0, count: G), gtMatched = [Int](repeating: 0, count: G),
                gtFrag = [Int](repeating: 0, count: G)
            var previous = [Int?](repeating: nil, count: G), previousStep = [Int?](repeating: nil, count: G)
            for f in frames {
                if f.gt.isEmpty {
                    clrFP += f.tracker.count
                    continue
                }
                if f.tracker.isEmpty {
                    clrFN += f.gt.count
                    for g in f.gt { gtCount[g] += 1 }
                    continue
                }
                var score = f.gt.indices.map { i in
                    f.tracker.indices.map { j -> Double in
                        let s = f.similarity[i][j]
                        if s < 0.5 - Self.eps { return 0 }
                        return (previousStep[f.gt[i]] == f.tracker[j] ? 1000 : 0) + s
                    }
                }
                let pairs = LinearAssignment.solve(score.map { $0.map { -$0 } }).filter {
                    score[$0.row][$0.column] > 0 + Self.eps
                }
                score = []
                for p in pairs {
                    let g = f.gt[p.row], t = f.tracker[p.column]
                    if let last = previous[g], last != t { idsw += 1 }
                }
                for g in f.gt { gtCount[g] += 1 }
                let notTracked = previousStep.map { $0 == nil }
                for p in pairs {
                    gtMatched[f.gt[p.row]] += 1
                    previous[f.gt[p.row]] = f.tracker[p.column]
                }
                previousStep = [Int?](repeating: nil, count: G)
                for p in pairs { previousStep[f.gt[p.row]] = f.tracker[p.column] }
                for g in 0..<G where notTracked[g] && previousStep[g] != nil { gtFrag[g] += 1 }
                clrTP += pairs.count
                clrFN += f.gt.count - pairs.count
                clrFP += f.tracker.count - pairs.count
                for p in pairs { motpSum += f.similarity[p.row][p.column] }
            }
            for g in 0..<G where gtCount[g] > 0 {
                let ratio = Double(gtMatched[g]) / Double(gtCount[g])
                if ratio > 0.8 { mt += 1 } else if ratio >= 0.2 { pt += 1 }
            }
            ml = G - mt - pt
            frag = gtFrag.filter { $0 > 0 }.map { $0 - 1 }.reduce(0, +)
        }
        truePositives = clrTP
        falsePositives = clrFP
        misses = clrFN
        idSwitches = idsw
        fragmentations = frag
        mostlyTracked = mt
        partlyTracked = pt
        mostlyLost = ml
        mota = Double(clrTP - clrFP - idsw) / max(1, Double(clrTP + clrFN))
        motp = motpSum / max(1, Double(clrTP))

        // --- Identity ---
        var idfn = 0, idfp = 0, idtp = 0
        if trDets == 0 {
            idfn = gtDets
        } else if gtDets == 0 {
            idfp = trDets
        } else {
            var potential = [[Double]](repeating: [Double](repeating: 0, count: T), count: G)
            var gtCount = [Double](repeating: 0, count: G), trCount = [Double](repeating: 0, count: T)
            for f in frames {
                for i in f.gt.indices {
                    for j in f.tracker.indices where f.similarity[i][j] >= 0.5 { potential[f.gt[i]][f.tracker[j]] += 1 }
                }
                for g in f.gt { gtCount[g] += 1 }
                for t in f.tracker { trCount[t] += 1 }
            }
            let n = G + T
            var fnMat = [[Double]](repeating: [Double](repeating: 0, count: n), count: n), fpMat = fnMat
            for r in G..<n { for c in 0..<T { fpMat[r][c] = 1e10 } }
            for r in 0..<G { for c in T..<n { fnMat[r][c] = 1e10 } }
            for g in 0..<G {
                for c in 0..<T { fnMat[g][c] = gtCount[g] }
                fnMat[g][T + g] = gtCount[g]
            }
            for t in 0..<T {
                for r in 0..<G { fpMat[r][t] = trCount[t] }
                fpMat[t + G][t] = trCount[t]
            }
            for g in 0..<G {
                for t in 0..<T {
                    fnMat[g][t] -= potential[g][t]
                    fpMat[g][t] -= potential[g][t]
                }
            }
            let cost = (0..<n).map { r in (0..<n).map { c in fnMat[r][c] + fpMat[r][c] } }
            let pairs = LinearAssignment.solve(cost)
            idfn = Int(pairs.reduce(0.0) { $0 + fnMat[$1.row][$1.column] })
            idfp = Int(pairs.reduce(0.0) { $0 + fpMat[$1.row][$1.column] })
            idtp = Int(gtCount.reduce(0, +)) - idfn
        }
        idTruePositives = idtp
        idFalsePositives = idfp
        idFalseNegatives = idfn
        idRecall = Double(idtp) / max(1, Double(idtp + idfn))
        idPrecision = Double(idtp) / max(1, Double(idtp + idfp))
        idf1 = Double(idtp) / max(1, Double(idtp) + 0.5 * Double(idfp) + 0.5 * Double(idfn))
    }

    /// IoU of two boxes as TrackEval computes it (0 where an area or the union is not positive).
    static func iou(_ a: Box, _ b: Box) -> Double {
        let ax1 = a.x + a.width, ay1 = a.y + a.height, bx1 = b.x + b.width, by1 = b.y + b.height
        let inter = max(min(ax1, bx1) - max(a.x, b.x), 0) * max(min(ay1, by1) - max(a.y, b.y), 0)
        let areaA = (ax1 - a.x) * (ay1 - a.y), areaB = (bx1 - b.x) * (by1 - b.y)
        let union = areaA + areaB - inter
        if areaA <= 0 + eps || areaB <= 0 + eps || union <= 0 + eps { return 0 }
        return inter / union
    }
}
