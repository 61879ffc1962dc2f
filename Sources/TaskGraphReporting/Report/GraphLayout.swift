import TaskGraphCore

/// A layered drawing of a directed acyclic graph, left to right (Sugiyama style, kept small):
/// every node goes in the column one past the highest of what it needs, and the nodes of each
/// column are ordered by the mean row of their neighbours, sweeping right then left a few times,
/// which untangles most crossings of pipeline-shaped graphs.
struct GraphLayout {
    /// The column (layer) of every node.
    private(set) var column: [Int]
    /// The row of every node within its column.
    private(set) var row: [Int]
    /// How many columns there are.
    let columnCount: Int
    /// The most nodes any column holds.
    let rowCount: Int

    /// Lays out `dependencies.count` nodes; `dependencies[n]` are the nodes `n` needs.
    init(dependencies: [[Int]], sweeps: Int = 4) {
        let count = dependencies.count
        let edges = dependencies.enumerated().flatMap { node, needs in needs.map { (from: node, to: $0) } }
        let levels = dependencyLevels(AdjacencyList(nodeCount: count, edges: edges)) ?? [Array(0..<count)]
        var column = Array(repeating: 0, count: count)
        for (level, nodes) in levels.enumerated() { for node in nodes { column[node] = level } }
        var dependents = Array(repeating: [Int](), count: count)
        for (node, needs) in dependencies.enumerated() { for need in needs { dependents[need].append(node) } }
        var columns = levels
        var row = Array(repeating: 0, count: count)
        for nodes in columns { for (position, node) in nodes.enumerated() { row[node] = position } }
        for sweep in 0..<sweeps {
            let rightward = sweep % 2 == 0
            let order = rightward ? Array(columns.indices.dropFirst()) : Array(columns.indices.dropLast().reversed())
            for level in order {
                let neighbours = rightward ? dependencies : dependents
                let keyed = columns[level].map { node -> (node: Int, key: Double) in
                    let rows = neighbours[node].filter { column[$0] != level }.map { Double(row[$0]) }
                    return (node, rows.isEmpty ? Double(row[node]) : rows.reduce(0, +) / Double(rows.count))
                }
                columns[level] = keyed.sorted { ($0.key, $0.node) < ($1.key, $1.node) }.map(\.node)
                for (position, node) in columns[level].enumerated() { row[node] = position }
            }
        }
        self.column = column
        self.row = row
        columnCount = columns.count
        rowCount = columns.map(\.count).max() ?? 0
    }
}
