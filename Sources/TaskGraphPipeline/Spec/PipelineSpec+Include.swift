/// Joining the operations of an included file to those of the file that includes it.
extension PipelineSpec {
    /// Adds the operations of `included` (a file this one includes as `name`, with its own
    /// includes joined already) as `name.id`, with their `needs:` and `input:` named the same
    /// way and their variables kept as a scope of their own.
    package mutating func include(_ included: PipelineSpec, as name: String) {
        let base = includedScopes.count + 1
        includedScopes.append(included.variables)
        includedScopes += included.includedScopes
        includedFiles.append(included.file)
        includedFiles += included.includedFiles
        func prefixed(_ id: Located<String>) -> Located<String> { id.map { "\(name).\($0)" } }
        operations.reserveCapacity(operations.count + included.operations.count)
        for var operation in included.operations {
            operation.id = prefixed(operation.id)
            operation.needs = operation.needs.map(prefixed)
            operation.input = operation.input.map(prefixed)
            operation.scope = operation.scope == 0 ? base : base + operation.scope
            operations.append(operation)
        }
    }

    /// An error for every operation whose id another, in this file or an included one, has
    /// already, at the later one, with a note at the first.
    package func duplicateIDDiagnostics() -> [Diagnostic] {
        guard !includedScopes.isEmpty else { return [] }
        var first: [String: SourceLocation] = [:]
        var found: [Diagnostic] = []
        for operation in operations {
            guard let earlier = first[operation.id.value] else {
                first[operation.id.value] = operation.id.location
                continue
            }
            found.append(
                .error(
                    "operation id '\(operation.id.value)' is declared twice", at: operation.id.location,
                    notes: [.note("'\(operation.id.value)' is first declared here", at: earlier)]))
        }
        return found
    }
}
