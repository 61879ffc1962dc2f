/// Checks statically that every operation's dependencies provide what it consumes, and that the
/// choice is unambiguous where it takes a single input.
struct DataFlowChecker {
    let registry: OperationRegistry
    let declared: DeclaredOperations

    func check(_ operations: [OperationSpec], expansion: InstanceExpansion, diagnostics: inout [Diagnostic]) {
        for index in operations.indices {
            // Most operations consume nothing: decided before reading anything else.
            guard let typeName = operations[index].type?.value, let type = registry[typeName] else { continue }
            let requirement = requirement(of: operations, index, type)
            if type.inputSwitch != nil, requirement.acceptedKinds.isEmpty {
                warnAboutUnreadData(operations, index, type: type, diagnostics: &diagnostics)
            }
            let accepted = requirement.acceptedKinds
            guard !accepted.isEmpty else { continue }
            // Fields are read in place: a whole `OperationSpec` is costly to copy.
            let subject = "operation '\(operations[index].id.value)'"
            let wanted = accepted.sorted().map(\.rawValue).joined(separator: " or ")
            guard let needsLocation = operations[index].needsLocation, !operations[index].needs.isEmpty else {
                diagnostics.append(
                    .error(
                        "\(subject): '\(typeName)' consumes \(wanted), but the operation has no 'needs'",
                        at: operations[index].type?.location ?? operations[index].id.location))
                continue
            }
            let dependencies = declared.targets(ofNeedsOf: index).compactMap { $0 }
            guard dependencies.count == operations[index].needs.count else { continue }
            let providers = dependencies.filter { !produced(by: operations[$0].type).isDisjoint(with: accepted) }
            guard !providers.isEmpty else {
                let offers = dependencies.map { describe(operations[$0]) }.joined(separator: ", ")
                diagnostics.append(
                    .error(
                        "\(subject): '\(typeName)' consumes \(wanted), but no dependency provides it (\(offers))",
                        at: needsLocation))
                continue
            }
            let available = providers.reduce(0) { $0 + expansion.multiplicity(of: $1, for: index) }
            // Instances from a result (`foreach: {from: …}`) are known only once it has run.
            let fansOut = providers.contains { operations[$0].foreach?.from != nil }
            if available == 0, !fansOut, operations[index].input == nil, expansion.instanceCount(of: index) > 0 {
                let names = providers.map { "'\(operations[$0].id.value)'" }.joined(separator: ", ")
                diagnostics.append(
                    .error(
                        "\(subject): '\(typeName)' consumes \(wanted), but every dependency providing it "
                            + "has a 'foreach' without items (\(names)), so it would receive nothing",
                        at: needsLocation))
                continue
            }
            guard case .one = requirement else { continue }
            if let input = operations[index].input {
                guard let chosen = declared.index[input.value], providers.contains(chosen) else { continue }
                if expansion.multiplicity(of: chosen, for: index) != 1 {
                    diagnostics.append(
                        .error(
                            "\(subject): 'input' names '\(input.value)', which has "
                                + "\(expansion.multiplicity(of: chosen, for: index)) instances; '\(typeName)' "
                                + "takes one",
                            at: input.location))
                }
                continue
            }
            if available > 1 {
                let names = providers.map { provider in
                    let instances = expansion.multiplicity(of: provider, for: index)
                    return "'\(operations[provider].id.value)'" + (instances > 1 ? " (\(instances) instances)" : "")
                }
                diagnostics.append(
                    .error(
                        "\(subject): '\(typeName)' takes one input, but \(available) dependency results provide "
                            + "\(wanted): "
                            + names.joined(separator: ", ") + "; choose one with 'input: <id>'",
                        at: needsLocation))
            }
        }
    }

    /// What `operations[index]`, of type `type`, needs: its type's input, or the switched one
    /// when the type's switch parameter is written true (a value from a variable is checked when
    /// the action runs).
    private func requirement(of operations: [OperationSpec], _ index: Int, _ type: OperationType) -> InputRequirement {
        guard let inputSwitch = type.inputSwitch,
            // Not `parameter(_:)`: where the optimiser does not inline it, the call is handed a
            // copy of the whole operation.
            let text = KeyedPairs(operations[index].parameters)[inputSwitch.parameter]?.scalar?.text,
            ParameterChecker.convert(text, to: .boolean) == .boolean(true)
        else { return type.input }
        return inputSwitch.requirement
    }

    /// Warns about each dependency of `operations[index]` (whose input switch is off) whose only
    /// product is data, which it then never reads: a download, a decryption, an image. An
    /// `exec` dependency is exempt: the files it writes are its product too.
    private func warnAboutUnreadData(
        _ operations: [OperationSpec], _ index: Int, type: OperationType, diagnostics: inout [Diagnostic]
    ) {
        guard let inputSwitch = type.inputSwitch else { return }
        for (need, target) in zip(operations[index].needs, declared.targets(ofNeedsOf: index)) {
            guard let target, operations[target].type?.value != ExecOperation.type.name else { continue }
            let kinds = produced(by: operations[target].type)
            guard !kinds.isEmpty, !kinds.contains(.file) else { continue }
            diagnostics.append(
                .warning(
                    "operation '\(operations[index].id.value)': '\(type.name)' needs '\(need.value)', whose result is "
                        + kinds.sorted().map(\.rawValue).joined(separator: " and ")
                        + ", but does not read it; set '\(inputSwitch.parameter): true' to read it",
                    at: need.location))
        }
    }

    /// What an operation of type `type` produces.
    private func produced(by type: Located<String>?) -> Set<DataKind> {
        type.flatMap { registry[$0.value] }?.produces ?? []
    }

    private func describe(_ operation: OperationSpec) -> String {
        let type = operation.type?.value ?? "?"
        let kinds = produced(by: operation.type).sorted().map(\.rawValue)
        let offer = kinds.isEmpty ? "provides nothing" : "provides " + kinds.joined(separator: " and ")
        return "'\(operation.id.value)' (\(type)) \(offer)"
    }
}
