/// A classifier's accuracy on labelled pictures: top-1 and top-k accuracy, and per class the
/// precision and recall of the top-1 answer (a picture whose top-1 is class c counts as predicted c).
public struct ClassificationEvaluation: Sendable {
    /// One picture: its true class and the classifier's ranked answers (best first).
    public struct Sample: Sendable {
        /// The true class.
        public var truth: String
        /// The predicted classes, best first.
        public var ranked: [String]

        /// One picture: its true class and the predictions, best first.
        public init(truth: String, ranked: [String]) {
            self.truth = truth
            self.ranked = ranked
        }
    }

    /// One class's figures.
    public struct ClassFigures: Sendable, Equatable {
        /// Pictures of the class.
        public var support = 0
        /// Pictures whose top-1 is the class.
        public var predicted = 0
        /// Pictures of the class whose top-1 is the class.
        public var correct = 0

        /// No pictures yet.
        public init() {}
        /// Correct top-1 predictions of this class over all its top-1 predictions (0 when none).
        public var precision: Double { predicted == 0 ? 0 : Double(correct) / Double(predicted) }
        /// Correct top-1 predictions of this class over its pictures (0 when none).
        public var recall: Double { support == 0 ? 0 : Double(correct) / Double(support) }
        /// The harmonic mean of precision and recall.
        public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    }

    /// Pictures evaluated.
    public let pictures: Int
    /// Share of pictures whose best prediction is the true class.
    public let top1: Double
    /// Accuracy within the first `k` answers.
    public let topK: Double
    /// The k of the top-k accuracy.
    public let k: Int
    /// Precision, recall and F1 per true or predicted class.
    public let byClass: [String: ClassFigures]
    /// The unweighted mean of the classes' recalls (balanced accuracy).
    public let meanRecall: Double

    /// The figures for `samples`, with top-`k` accuracy.
    public init(_ samples: [Sample], k: Int = 5) {
        var byClass: [String: ClassFigures] = [:]
        var hits1 = 0, hitsK = 0
        for s in samples {
            byClass[s.truth, default: ClassFigures()].support += 1
            if let first = s.ranked.first {
                byClass[first, default: ClassFigures()].predicted += 1
                if first == s.truth {
                    hits1 += 1
                    byClass[s.truth, default: ClassFigures()].correct += 1
                }
            }
            if s.ranked.prefix(k).contains(s.truth) { hitsK += 1 }
        }
        pictures = samples.count
        top1 = samples.isEmpty ? 0 : Double(hits1) / Double(samples.count)
        topK = samples.isEmpty ? 0 : Double(hitsK) / Double(samples.count)
        self.k = k
        self.byClass = byClass
        let withSupport = byClass.values.filter { $0.support > 0 }
        meanRecall = withSupport.isEmpty ? 0 : withSupport.map(\.recall).reduce(0, +) / Double(withSupport.count)
    }
}
