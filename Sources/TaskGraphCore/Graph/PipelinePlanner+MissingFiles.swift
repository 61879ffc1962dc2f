/// What operations need on disk before they start and is not there: the files they read (a
/// `load`'s path, an `exec`'s literal `inputs:`), the files their parameters name
/// (`ParameterSpec.namesExistingFile`, a key file) and the programs they start, found as
/// running would find them. A file another operation declares it writes (`FileEdges`) is not
/// missing; a file or a program path that does not exist while the operation needs an `exec`
/// (which may write it without declaring it) is a warning, not an error. Checked for
/// `validate` (`checksFiles`).
extension PipelinePlanner {
    /// A diagnostic for every missing file and program of `nodes`, at the entry that names it.
    func missingFileDiagnostics(_ nodes: [ExecutionGraph.Node], _ spec: PipelineSpec, _ expansion: InstanceExpansion)
        -> [Diagnostic]
    {
        var written: Set<String> = []
        for node in nodes {
            guard let action = node.action as? any FileWritingAction else { continue }
            written.formUnion(action.outputFiles.map(PathResolver.normalized))
        }
        var found: [Diagnostic] = []
        // Each file is looked at once, each program looked up once, however many name it.
        var kinds: [String: FileKind] = [:]
        let programs = ProgramLocations()
        for index in nodes.indices {
            // Fields are read in place: a whole `OperationSpec` is costly to copy.
            let operation = expansion.instances[index].operation
            let id = spec.operations[operation].id
            let parameters = KeyedPairs(spec.operations[operation].parameters)
            let subject = "operation '\(id.value)'"
            for (parameter, path, location) in namedFiles(nodes[index], parameters: parameters, id: id)
            where !written.contains(PathResolver.normalized(path)) {
                let kind = kinds[path] ?? FileKind(at: path)
                kinds[path] = kind
                guard kind != .regular else { continue }
                let named = "\(subject): '\(parameter)' names '\(displayPath(path))'"
                if kind != .missing {
                    found.append(
                        .error(
                            "\(named), which is \(kind == .directory ? "a directory" : "not a regular file")",
                            at: location))
                } else if needsExec(index, nodes) {
                    found.append(
                        .warning(
                            "\(named), which does not exist yet; declare it in the 'outputs' of the operation that "
                                + "writes it",
                            at: location))
                } else {
                    found.append(.error("\(named), which does not exist", at: location))
                }
            }
            guard let program = nodes[index].action as? any ProgramStartingAction,
                !(program.programPath.map { written.contains(PathResolver.normalized($0)) } ?? false),
                let problem = program.programProblem(programs)
            else { continue }
            let location = Self.programLocation(in: parameters, id: id)
            if program.programPath != nil, needsExec(index, nodes) {
                found.append(
                    .warning(
                        "\(subject): \(problem) yet; declare it in the 'outputs' of the operation that writes it",
                        at: location))
            } else {
                found.append(.error("\(subject): \(problem)", at: location))
            }
        }
        return found
    }

    /// The files `node` reads or names in its parameters, absolute, with the parameter and
    /// where its operation (`id`, whose parameters as written are `parameters`) names each.
    private func namedFiles(
        _ node: ExecutionGraph.Node, parameters: KeyedPairs, id: Located<String>
    ) -> [(parameter: String, path: String, location: SourceLocation)] {
        var files: [(parameter: String, path: String, location: SourceLocation)] = []
        if let action = node.action as? any FileReadingAction {
            // By position: the entries as written line up with the reads unless a variable
            // spliced a list in (then the parameter's value is the place).
            let reads = action.filesRead
            let value = parameters[action.filesReadParameter]
            var entries: [YAMLValue] = []
            if case .sequence(let items, _)? = value, items.count == reads.count { entries = items }
            for (position, read) in reads.enumerated() where !PathGlob.isPattern(read) {
                let location = entries.isEmpty ? value?.location ?? id.location : entries[position].location
                files.append((action.filesReadParameter, read, location))
            }
        }
        guard let setup = node.setup, let type = registry[node.type] else { return files }
        for parameter in type.parameters where parameter.namesExistingFile {
            guard let value = setup.parameters.string(parameter.name) else { continue }
            let location = parameters[parameter.name]?.location ?? id.location
            files.append((parameter.name, PathResolver.resolve(value, in: setup.pipelineDirectory), location))
        }
        return files
    }

    /// Where operation `id`, whose parameters as written are `parameters`, names its program:
    /// the first entry of `command:`.
    private static func programLocation(in parameters: KeyedPairs, id: Located<String>) -> SourceLocation {
        guard let command = parameters["command"] else { return id.location }
        guard case .sequence(let items, _) = command, let first = items.first else { return command.location }
        return first.location
    }

    /// Whether node `index` needs, directly or not, an operation that starts a program.
    private func needsExec(_ index: Int, _ nodes: [ExecutionGraph.Node]) -> Bool {
        var visited: Set<Int> = [index]
        var pending = nodes[index].dependencies
        while let next = pending.popLast() {
            guard visited.insert(next).inserted else { continue }
            if nodes[next].action is any ProgramStartingAction { return true }
            pending += nodes[next].dependencies
        }
        return false
    }
}
