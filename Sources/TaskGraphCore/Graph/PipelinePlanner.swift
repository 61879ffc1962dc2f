/// Turns a checked `PipelineSpec` into an `ExecutionGraph`: expands `foreach`, resolves `needs`,
/// checks pools, data flow and cycles, type-checks every instance's parameters, and makes each
/// instance's `OperationSetup` and, from it alone, its action.
struct PipelinePlanner {
    let registry: OperationRegistry
    /// Directory of the pipeline file (relative input paths).
    let pipelineDirectory: String
    /// The run's output directory (relative output paths).
    let outputDirectory: String
    /// Pools given on the command line (`--pool name=N`), which also declare them.
    let poolOverrides: [String: Int]
    /// Whether to report the files and programs operations need that are not there
    /// (`validate`; a run finds them when it gets there).
    var checksFiles = false

    /// The graph, or nil when any error was found; and every diagnostic.
    func plan(_ spec: PipelineSpec) -> (graph: ExecutionGraph?, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let declared = DeclaredOperations(spec.operations)
        checkReferences(spec, declared, diagnostics: &diagnostics)
        FanOutPlan.check(spec, declared, diagnostics: &diagnostics)
        let items = ForeachResolver(pipelineDirectory: pipelineDirectory).items(
            of: spec.operations, diagnostics: &diagnostics)
        let expansion = InstanceExpansion(spec.operations, items: items, declared: declared, diagnostics: &diagnostics)
        DataFlowChecker(registry: registry, declared: declared)
            .check(spec.operations, expansion: expansion, diagnostics: &diagnostics)
        let cycles = CycleReporter(expansion: expansion, operations: spec.operations)
        diagnostics += cycles.diagnostics()
        var nodes = makeNodes(spec, expansion, diagnostics: &diagnostics)
        if var planned = nodes {
            diagnostics += OutputWriters.diagnostics(
                planned, outputDirectory: outputDirectory, displayPath: displayPath,
                writeLocation: { node, path in
                    writeLocation(of: path, by: planned[node], in: spec.operations[expansion.instances[node].operation])
                })
            if checksFiles { diagnostics += missingFileDiagnostics(planned, spec, expansion) }
            FileEdges(planned).apply(to: &planned)
            diagnostics += FileEdges.cycleDiagnostics(
                planned, displayPath: displayPath, needLocation: cycles.needLocation,
                readLocation: { node, path in
                    readLocation(of: path, by: planned[node], in: spec.operations[expansion.instances[node].operation])
                })
            FanOutPlan(spec, declared).addExpansions(to: &planned, spec, expansion, declared, planner: self)
            nodes = planned
        }
        let unique = Array(Set(diagnostics)).sortedForDisplay()
        guard !unique.containsErrors, let nodes else { return (nil, unique) }
        return (ExecutionGraph(planned: nodes), unique)
    }

    private func checkReferences(
        _ spec: PipelineSpec, _ declared: DeclaredOperations, diagnostics: inout [Diagnostic]
    ) {
        let pools = Set(spec.pools.keys).union(poolOverrides.keys)
        // By index, reading fields in place: a whole `OperationSpec` is costly to copy.
        for index in spec.operations.indices {
            let id = spec.operations[index].id.value
            let needs = spec.operations[index].needs
            for (need, target) in zip(needs, declared.targets(ofNeedsOf: index)) where target == nil {
                diagnostics.append(
                    .error(
                        "operation '\(id)' needs '\(need.value)', which does not exist"
                            + Self.missingNeedAdvice(for: need.value, in: declared.ids),
                        at: need.location))
            }
            if let pool = spec.operations[index].settings.pool, !pools.contains(pool),
                let location = spec.operations[index].poolLocation
            {
                diagnostics.append(
                    .error(
                        "operation '\(id)': pool '\(pool)' is not declared under 'pools'"
                            + Suggestion.clause(for: pool, in: pools),
                        at: location))
            }
            if spec.operations[index].settings.when == .failure, needs.isEmpty,
                let whenLocation = spec.operations[index].whenLocation
            {
                diagnostics.append(
                    .error(
                        "operation '\(id)': 'when: failure' runs only after something it needs failed, but it has "
                            + "no 'needs'",
                        at: whenLocation))
            }
            if let input = spec.operations[index].input, !needs.contains(where: { $0.value == input.value }) {
                diagnostics.append(
                    .error(
                        "operation '\(id)': 'input' names '\(input.value)', which is not in its 'needs'",
                        at: input.location))
            }
        }
    }

    /// The node of every instance (nil if any cannot be made), checking its parameters. Nodes
    /// are made independently, a chunk of instances per core; chunks are joined in order.
    private func makeNodes(
        _ spec: PipelineSpec, _ expansion: InstanceExpansion, diagnostics: inout [Diagnostic]
    ) -> [ExecutionGraph.Node]? {
        let count = expansion.instances.count
        let (nodes, found) = ParallelBands.collect(count: count) { range, nodes, diagnostics in
            makeNodes(range, spec, expansion, into: &nodes, diagnostics: &diagnostics)
        }
        diagnostics += found
        return nodes.count == count ? nodes : nil
    }

    /// Appends the node of every instance in `instances` that can be made.
    private func makeNodes(
        _ instances: Range<Int>, _ spec: PipelineSpec, _ expansion: InstanceExpansion,
        into nodes: inout [ExecutionGraph.Node], diagnostics: inout [Diagnostic]
    ) {
        var environments = DeclaredEnvironments(spec.variables.environment)
        var checker = ParameterChecker(variables: spec.variables, item: .unavailable)
        var values: [(String, ParameterValue)] = [] // reused: the dictionary is made at its final size
        // Made once per operation and shared by its instances (instances of one are adjacent).
        var parameterLocations: (operation: Int, locations: [String: SourceLocation])?
        for index in instances {
            // Fields are read in place: a whole `OperationSpec` is costly to copy.
            let operation = expansion.instances[index].operation
            guard let typeName = spec.operations[operation].type, let type = registry[typeName.value] else { continue }
            let item = expansion.instances[index].item
            let operationID = spec.operations[operation].id.value
            checker.item = item.map { .bound($0) } ?? .unavailable
            if !spec.includedScopes.isEmpty {
                checker.variables = spec.variables(of: operation)
            }
            values.removeAll(keepingCapacity: true)
            let errorsBefore = diagnostics.count
            for parameter in type.parameters {
                if let value = spec.operations[operation].parameter(parameter.name) {
                    if let checked = checker.check(
                        value, as: parameter.type, name: parameter.name, subject: "operation '\(operationID)'",
                        diagnostics: &diagnostics)
                    {
                        values.append((parameter.name, checked))
                    }
                } else if let defaultValue = parameter.defaultValue {
                    values.append((parameter.name, defaultValue))
                }
            }
            // An action is made from checked parameters only (a failed one is missing).
            guard diagnostics.count == errorsBefore else { continue }
            let parameters = Parameters(Dictionary(uniqueKeysWithValues: values))
            let id = expansion.instances[index].id
            let dependencies = expansion.dependencies[index]
            let setup = OperationSetup(
                type: type.name, id: id, parameters: parameters,
                dependencies: dependencies.map { expansion.instances[$0].id },
                preferredInput: spec.operations[operation].input.map {
                    expansion.instanceID(of: $0.value, neededBy: index)
                },
                environment: environments.variables(named: type.environmentNames(parameters)),
                pipelineDirectory: pipelineDirectory, outputDirectory: outputDirectory)
            if parameterLocations?.operation != operation {
                let pairs = spec.operations[operation].parameters.map { ($0.key.text, $0.value.location) }
                parameterLocations = (operation, Dictionary(pairs) { first, _ in first })
            }
            do {
                let action = try type.makeAction(setup)
                var node = ExecutionGraph.Node(
                    id: id, type: type.name, action: action, dependencies: dependencies,
                    settings: spec.operations[operation].settings, setup: setup,
                    location: spec.operations[operation].id.location)
                node.parameterLocations = parameterLocations?.locations ?? [:]
                nodes.append(node)
            } catch let invalid as InvalidParameterEntries {
                for entry in invalid.entries {
                    diagnostics.append(
                        .error(
                            "operation '\(operationID)': \(entry.error)",
                            at: entryLocation(entry, in: spec.operations[operation]) ?? typeName.location))
                }
            } catch {
                diagnostics.append(.error("operation '\(operationID)': \(error)", at: typeName.location))
            }
        }
    }
}
