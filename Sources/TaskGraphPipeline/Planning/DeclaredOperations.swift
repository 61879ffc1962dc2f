import TaskGraphBasics

/// The declared operations by id, and the operation every `needs` entry names.
package struct DeclaredOperations {
    /// Each id's operation index (the first, if an id repeats).
    package let index: [String: Int]
    /// The ids in declaration order.
    package let ids: [String]
    /// The operation named by every `needs` entry (nil if none has that id), all operations'
    /// entries in declaration order; `needsStart[i]` is where operation `i`'s begin.
    private let needTargets: [Int?]
    private let needsStart: [Int]

    package init(_ operations: [OperationSpec]) {
        ids = operations.map(\.id.value)
        let index = Dictionary(zip(ids, ids.indices), uniquingKeysWith: { first, _ in first })
        self.index = index
        var start = 0
        needsStart =
            operations.map { operation in
                defer { start += operation.needs.count }
                return start
            } + [start]
        // Looked up once here, a chunk of operations per core, for every check that follows.
        needTargets = ParallelBands.collect(count: operations.count) { range, targets in
            for operation in operations[range] {
                for need in operation.needs { targets.append(index[need.value]) }
            }
        }
    }

    /// The operation named by each `needs` entry of operation `operation`, in order (nil for an
    /// id that is not declared).
    package func targets(ofNeedsOf operation: Int) -> ArraySlice<Int?> {
        needTargets[needsStart[operation]..<needsStart[operation + 1]]
    }
}
