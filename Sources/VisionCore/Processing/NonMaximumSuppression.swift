/// Greedy non-maximum suppression, the one the package uses (raw SSD decoding, the class-agnostic
/// localizer): candidates by score, best first — equal scores in their given order — each kept
/// unless it overlaps one already kept.
package enum NonMaximumSuppression {
    /// The kept candidates, best first. `overlaps(kept, candidate)` says when a candidate is
    /// suppressed by a kept one; `limit` > 0 stops after that many.
    package static func greedy<T>(_ candidates: [T], score: (T) -> Float, limit: Int, overlaps: (T, T) -> Bool) -> [T] {
        let order = candidates.indices.sorted { a, b in
            let sa = score(candidates[a]), sb = score(candidates[b])
            return sa != sb ? sa > sb : a < b
        }
        var kept: [T] = []
        for i in order {
            if limit > 0 && kept.count >= limit { break }
            let candidate = candidates[i]
            if !kept.contains(where: { overlaps($0, candidate) }) { kept.append(candidate) }
        }
        return kept
    }
}
