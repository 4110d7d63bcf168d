/// Minimum-cost assignment of rows to columns (the Hungarian method, O(n³)), for a rectangular
/// cost matrix. Pairs whose cost exceeds `maxCost` are left unassigned.
enum HungarianAssignment {
    /// The (row, column) pairs of the optimal assignment with cost ≤ `maxCost`.
    static func solve(_ cost: [[Double]], maxCost: Double) -> [(row: Int, column: Int)] {
        let rows = cost.count
        guard rows > 0, let columns = cost.first?.count, columns > 0 else { return [] }
        let n = max(rows, columns)
        // Forbidden pairs cost more than any allowed assignment: never chosen over an allowed one.
        let big = maxCost * Double(n + 1) + 1
        var a = [[Double]](repeating: [Double](repeating: big, count: n + 1), count: n + 1)
        for i in 0..<rows {
            for j in 0..<columns where j < cost[i].count {
                let c = cost[i][j]
                a[i + 1][j + 1] = c.isFinite && c <= maxCost ? c : big
            }
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
            if a[i][j] < big { result.append((i - 1, j - 1)) }
        }
        return result.sorted { $0.row < $1.row }
    }
}
