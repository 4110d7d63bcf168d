import VisionPipeline

/// "Did you mean …?": the closest known word to a mistyped one (edit distance, or a unique prefix).
enum Suggestion {
    /// The candidate nearest to `word`, if any is close enough to be a plausible typo.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        guard !w.isEmpty else { return nil }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
        if prefixed.count == 1 { return prefixed[0] }
        var best: (String, Int)?
        for c in candidates {
            let full = Array(c.lowercased())
            // A long name typed in part with a typo: compare with its start of the same length too.
            let d = min(
                distance(w, full),
                w.count >= 6 && full.count > w.count ? distance(w, Array(full.prefix(w.count))) + 1 : Int.max)
            if d <= max(1, min(3, w.count / 3)), best.map({ d < $0.1 }) ?? true { best = (c, d) }
        }
        return best?.0
    }

    /// Optimal string alignment distance (Levenshtein with adjacent transpositions).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, previous2[j - 2] + 1) }
                current[j] = v
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
