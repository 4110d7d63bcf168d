/// Minimum-cost assignment of rows to columns (the Hungarian method, O(n³)), for a rectangular
/// cost matrix, where leaving a row or a column unassigned costs `maxCost / 2`: pairs costing
/// `maxCost` or more are never chosen, and fewer matches win over a costlier set of more matches.
enum HungarianAssignment {
    /// The (row, column) pairs of the optimal assignment with cost ≤ `maxCost`.
    static func solve(_ cost: [[Double]], maxCost: Double) -> [(row: Int, column: Int)] {
        let rows = cost.count
        guard rows > 0, let columns = cost.first?.count, columns > 0 else { return [] }
        // Leaving a row or a column unassigned costs maxCost / 2, so a pair is only chosen when it
        // is cheaper than leaving both of its ends unassigned: the matrix is extended with one
        // dummy column per row and one dummy row per column (a dummy pairs with a dummy for free).
        let n = rows + columns
        let big = (maxCost + 1) * Double(n + 1) * 4
        let half = maxCost / 2
        var a = [[Double]](repeating: [Double](repeating: big, count: n + 1), count: n + 1)
        for i in 0..<rows {
            for j in 0..<columns where j < cost[i].count {
                let c = cost[i][j]
                a[i + 1][j + 1] = c.isFinite && c <= maxCost ? c : big
            }
            a[i + 1][columns + i + 1] = half
        }
        for j in 0..<columns {
            a[rows + j + 1][j + 1] = half
            for k in 0..<rows { a[rows + j + 1][columns + k + 1] = 0 }
        }
        // Potentials u, v; p[j] = row assigned to column j; way[] for augmenting paths (1-based).
        var u = [Double](repeating: 0, count: n + 1), v = [Double](repeating: 0, count: n + 1)
        var p = [Int](repeating: 0, count: n + 1), way = [Int](repeating: 0, count: n + 1)
        for i in 1...n {
            p[0] = i
            var j0 = 0
            var minv = [Double](repeating: .infinity, count: n + 1)
            var used = [Bool](repeating: false, count: n + 1)
            repeat {
                used[j0] = true
                let i0 = p[j0]
                var delta = Double.infinity
                var j1 = 0
                for j in 1...n where !used[j] {
                    let cur = a[i0][j] - u[i0] - v[j]
                    if cur < minv[j] { minv[j] = cur; way[j] = j0 }
                    if minv[j] < delta { delta = minv[j]; j1 = j }
                }
                for j in 0...n {
                    if used[j] { u[p[j]] += delta; v[j] -= delta } else { minv[j] -= delta }
                }
                j0 = j1
            } while p[j0] != 0
            repeat {
                let j1 = way[j0]
                p[j0] = p[j1]
                j0 = j1
            } while j0 != 0
        }
        var result: [(row: Int, column: Int)] = []
        for j in 1...n {
            let i = p[j]
            guard i >= 1, i <= rows, j <= columns else { continue }
            if a[i][j] < big, a[i][j] < maxCost { result.append((i - 1, j - 1)) }
        }
        return result.sorted { $0.row < $1.row }
    }
}
