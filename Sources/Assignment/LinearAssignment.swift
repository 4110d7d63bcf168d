/// The minimum-cost assignment of rows to columns (the Hungarian method with potentials, O(n²m)):
/// every row of a matrix with no more rows than columns gets a distinct column (a wider-than-tall
/// matrix is transposed first), as scipy's `linear_sum_assignment` returns it — the pairs in row
/// order. Costs must be finite. The tracker's gated assignment (VisionCore's `HungarianAssignment`)
/// runs on it too.
package enum LinearAssignment {
    package static func solve(_ cost: [[Double]]) -> [(row: Int, column: Int)] {
        let rows = cost.count, columns = cost.first?.count ?? 0
        if rows == 0 || columns == 0 { return [] }
        if rows > columns {
            let transposed = (0..<columns).map { c in (0..<rows).map { r in cost[r][c] } }
            return solve(transposed).map { (row: $0.column, column: $0.row) }.sorted { $0.row < $1.row }
        }
        // 1-based arrays, column 0 a sentinel.
        var u = [Double](repeating: 0, count: rows + 1), v = [Double](repeating: 0, count: columns + 1)
        var owner = [Int](repeating: 0, count: columns + 1), way = [Int](repeating: 0, count: columns + 1)
        for i in 1...rows {
            owner[0] = i
            var j0 = 0
            var minimum = [Double](repeating: .infinity, count: columns + 1)
            var used = [Bool](repeating: false, count: columns + 1)
            repeat {
                used[j0] = true
                let i0 = owner[j0]
                var delta = Double.infinity, j1 = 0
                for j in 1...columns where !used[j] {
                    let current = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if current < minimum[j] {
                        minimum[j] = current
                        way[j] = j0
                    }
                    if minimum[j] < delta {
                        delta = minimum[j]
                        j1 = j
                    }
                }
                for j in 0...columns {
                    if used[j] {
                        u[owner[j]] += delta
                        v[j] -= delta
                    } else {
                        minimum[j] -= delta
                    }
                }
                j0 = j1
            } while owner[j0] != 0
            repeat {
                let j1 = way[j0]
                owner[j0] = owner[j1]
                j0 = j1
            } while j0 != 0
        }
        var pairs: [(row: Int, column: Int)] = []
        for j in 1...columns where owner[j] != 0 { pairs.append((row: owner[j] - 1, column: j - 1)) }
        return pairs.sorted { $0.row < $1.row }
    }
}
