/// Finds dependency cycles in the expanded graph and reports each distinct one once, as the
/// whole path with the location of every `needs` entry on it.
struct CycleReporter {
    let expansion: InstanceExpansion
    let operations: [OperationSpec]
    /// At most this many cycles are reported.
    var limit = 100

    /// One error per distinct cycle (cycles that only differ by `foreach` item count once).
    func diagnostics() -> [Diagnostic] {
        let graph = AdjacencyList(successors: expansion.dependencies)
        var reported: Set<[Int]> = []
        var diagnostics: [Diagnostic] = []
        for cycle in findCycles(graph, limit: limit) {
            let declared = cycle.map { expansion.instances[$0].operation }
            guard reported.insert(Self.canonicalRotation(declared)).inserted else { continue }
            let ids = cycle.map { expansion.instances[$0].id }
            var notes: [Diagnostic] = []
            for (position, node) in cycle.enumerated() {
                let next = cycle[(position + 1) % cycle.count]
                notes.append(
                    .note(
                        "'\(ids[position])' needs '\(expansion.instances[next].id)' here",
                        at: needLocation(from: node, to: next)))
            }
            diagnostics.append(
                .error(
                    "dependency cycle: " + (ids + [ids[0]]).joined(separator: " -> "),
                    at: notes[0].location, notes: notes))
        }
        return diagnostics
    }

    /// Where the operation of instance `source` names the operation of instance `target` in its
    /// `needs` (every edge comes from exactly one such entry: duplicates are rejected earlier).
    func needLocation(from source: Int, to target: Int) -> SourceLocation {
        let operation = operations[expansion.instances[source].operation]
        let targetID = operations[expansion.instances[target].operation].id.value
        return (operation.needs.first { $0.value == targetID } ?? operation.id).location
    }

    /// The rotation of `cycle` that starts at its smallest element.
    private static func canonicalRotation(_ cycle: [Int]) -> [Int] {
        guard let start = cycle.indices.min(by: { cycle[$0] < cycle[$1] }) else { return cycle }
        return Array(cycle[start...] + cycle[..<start])
    }
}
