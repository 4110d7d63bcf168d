import Assignment

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
        // Every row of the square matrix gets a column (LinearAssignment: the Hungarian method with potentials).
        var p = [Int](repeating: 0, count: n + 1)
        for pair in LinearAssignment.solve((1...n).map { Array(a[$0][1...n]) }) { p[pair.column + 1] = pair.row + 1 }
        var result: [(row: Int, column: Int)] = []
        for j in 1...n {
            let i = p[j]
            guard i >= 1, i <= rows, j <= columns else { continue }
            if a[i][j] < big, a[i][j] < maxCost { result.append((i - 1, j - 1)) }
        }
        return result.sorted { $0.row < $1.row }
    }
}
