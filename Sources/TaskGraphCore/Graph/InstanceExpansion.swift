/// The expanded graph of a pipeline: one instance per operation, or one per item for a
/// `foreach` operation, and the dependency edges between instances.
///
/// Pairing rules for "A needs B": plain → plain is one edge; plain → foreach depends on every
/// instance of B (fan-in); foreach → plain makes every A[x] depend on B; foreach → foreach pairs
/// A[x] with B[x], which requires every item of A to be an item of B.
struct InstanceExpansion {
    /// One node of the expanded graph.
    struct Instance {
        /// Index of the declared operation.
        let operation: Int
        /// `id` or `id[item]`.
        let id: String
        /// The `foreach` item, if any.
        let item: String?
    }

    private(set) var instances: [Instance] = []
    /// For each instance, the instances it needs, in declaration order.
    private(set) var dependencies: [[Int]] = []
    private var instancesOfOperation: [Range<Int>] = []
    private var itemsOfOperation: [[String]?] = []
    private let declared: DeclaredOperations

    init(_ operations: [OperationSpec], declared: DeclaredOperations, diagnostics: inout [Diagnostic]) {
        self.declared = declared
        instances.reserveCapacity(operations.count)
        // By index, reading fields in place: a whole `OperationSpec` is costly to copy.
        for index in operations.indices {
            let first = instances.count
            let id = operations[index].id.value
            let items = operations[index].items?.value
            if let items {
                instances += items.map { Instance(operation: index, id: "\(id)[\($0)]", item: $0) }
            } else {
                instances.append(Instance(operation: index, id: id, item: nil))
            }
            instancesOfOperation.append(first..<instances.count)
            itemsOfOperation.append(items)
        }
        dependencies = Array(repeating: [], count: instances.count)
        for index in operations.indices {
            let needs = operations[index].needs
            for instance in instancesOfOperation[index] {
                dependencies[instance].reserveCapacity(needs.count)
            }
            for (need, target) in zip(needs, declared.targets(ofNeedsOf: index)) {
                guard let target else { continue }
                connect(index, to: target, at: need.location, operations: operations, diagnostics: &diagnostics)
            }
        }
    }

    /// Whether the declared operation `id` has `foreach`.
    func isForeach(_ id: String) -> Bool {
        declared.index[id].map { itemsOfOperation[$0] != nil } ?? false
    }

    /// How many instances the declared operation `index` has.
    func instanceCount(of index: Int) -> Int {
        instancesOfOperation[index].count
    }

    /// How many instances of `target` each instance of `source` depends on.
    func multiplicity(of target: Int, for source: Int) -> Int {
        itemsOfOperation[source] == nil ? instancesOfOperation[target].count : 1
    }

    private mutating func connect(
        _ source: Int, to target: Int, at location: SourceLocation, operations: [OperationSpec],
        diagnostics: inout [Diagnostic]
    ) {
        let targets = instancesOfOperation[target]
        guard let sourceItems = itemsOfOperation[source], let targetItems = itemsOfOperation[target] else {
            for instance in instancesOfOperation[source] {
                dependencies[instance] += targets
            }
            return
        }
        var targetByItem: [String: Int] = [:]
        for (offset, item) in targetItems.enumerated() { targetByItem[item] = targets.lowerBound + offset }
        var unpaired: [String] = []
        for (offset, item) in sourceItems.enumerated() {
            guard let partner = targetByItem[item] else {
                unpaired.append(item)
                continue
            }
            let instance = instancesOfOperation[source].lowerBound + offset
            dependencies[instance].append(partner)
        }
        if !unpaired.isEmpty {
            let sourceID = operations[source].id.value
            let targetID = operations[target].id.value
            diagnostics.append(.error(
                "cannot pair '\(sourceID)' with '\(targetID)' item by item: '\(targetID)' has no "
                    + "item \(unpaired.map { "'\($0)'" }.joined(separator: ", ")) "
                    + "(its items: \(targetItems.joined(separator: ", ")))",
                at: location))
        }
    }
}
