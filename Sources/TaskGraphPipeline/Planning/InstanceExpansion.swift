/// The expanded graph of a pipeline: one instance per operation, or one per item for a
/// `foreach` operation, and the dependency edges between instances.
///
/// Pairing rules for "A needs B": plain → plain is one edge; plain → foreach depends on every
/// instance of B (fan-in); foreach → plain makes every A[x] depend on B; foreach → foreach pairs
/// A[x] with B[x], which requires every item of A to be an item of B; a matrix pairs on one of
/// its axes (`InstanceExpansion+Matrix.swift`).
package struct InstanceExpansion {
    /// One node of the expanded graph.
    package struct Instance {
        /// Index of the declared operation.
        package let operation: Int
        /// `id` or `id[item]`.
        package let id: String
        /// The `foreach` item, if any.
        package let item: ForeachItem?
    }

    package private(set) var instances: [Instance] = []
    /// For each instance, the instances it needs, in declaration order.
    package private(set) var dependencies: [[Int]] = []
    private var instancesOfOperation: [Range<Int>] = []
    private var itemsOfOperation: [[ForeachItem]?] = []
    private let declared: DeclaredOperations

    /// The instances of `operations`, whose `foreach` items (nil for none) are `items`.
    package init(
        _ operations: [OperationSpec], items itemsByOperation: [[ForeachItem]?], declared: DeclaredOperations,
        diagnostics: inout [Diagnostic]
    ) {
        self.declared = declared
        instances.reserveCapacity(operations.count)
        // By index, reading fields in place: a whole `OperationSpec` is costly to copy.
        for index in operations.indices {
            let first = instances.count
            let id = operations[index].id.value
            let items = itemsByOperation[index]
            if let items {
                instances += items.map { Instance(operation: index, id: "\(id)[\($0.id)]", item: $0) }
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

    /// How many instances the declared operation `index` has.
    package func instanceCount(of index: Int) -> Int {
        instancesOfOperation[index].count
    }

    /// The id of the instance of the declared operation `id` that instance `instance` needs:
    /// its paired instance when it needs exactly one, else `id` itself.
    package func instanceID(of id: String, neededBy instance: Int) -> String {
        guard let operation = declared.index[id] else { return id }
        let needed = dependencies[instance].filter { instances[$0].operation == operation }
        return needed.count == 1 ? instances[needed[0]].id : id
    }

    /// The items of the declared operation `index`, nil if it has no `foreach`.
    package func items(of index: Int) -> [ForeachItem]? {
        itemsOfOperation[index]
    }

    /// How many instances of `target` each instance of `source` depends on.
    package func multiplicity(of target: Int, for source: Int) -> Int {
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
        guard let key = pairingKey(source, to: target, at: location, operations: operations, diagnostics: &diagnostics)
        else {
            return
        }
        var targetByItem: [String: Int] = [:]
        for (offset, item) in targetItems.enumerated() { targetByItem[item.id] = targets.lowerBound + offset }
        var unpaired: [String] = []
        for (offset, item) in sourceItems.enumerated() {
            guard let partner = targetByItem[key(item)] else {
                unpaired.append(key(item))
                continue
            }
            let instance = instancesOfOperation[source].lowerBound + offset
            dependencies[instance].append(partner)
        }
        if !unpaired.isEmpty {
            let sourceID = operations[source].id.value
            let targetID = operations[target].id.value
            diagnostics.append(
                .error(
                    "cannot pair '\(sourceID)' with '\(targetID)' item by item: '\(targetID)' has no "
                        + "item \(unpaired.map { "'\($0)'" }.joined(separator: ", ")) "
                        + "(its items: \(targetItems.map(\.id).joined(separator: ", ")))",
                    at: location))
        }
    }
}
