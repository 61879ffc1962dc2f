/// Where the planner's messages point: the entry of a parameter a mistake or a file is in.
extension PipelinePlanner {
    /// Where `operation` names `path` (absolute) among the files `node` reads: the entry of its
    /// list (an `exec`'s `inputs:`) or its value (a `load`'s `path:`).
    func readLocation(of path: String, by node: ExecutionGraph.Node, in operation: OperationSpec) -> SourceLocation {
        guard let action = node.action as? any FileReadingAction,
            let value = operation.parameter(action.filesReadParameter)
        else { return operation.id.location }
        guard case .sequence(let entries, _) = value, entries.count == action.filesRead.count,
            let position = action.filesRead.firstIndex(where: { FileEdges.read($0, names: path) })
        else { return value.location }
        return entries[position].location
    }

    /// Where `operation` names `path` (absolute, normalised) among the files `node` writes: the
    /// entry of its `outputs:` list (an `exec`) or its `path:` (a `save`).
    func writeLocation(of path: String, by node: ExecutionGraph.Node, in operation: OperationSpec) -> SourceLocation {
        guard let action = node.action as? any FileWritingAction else { return operation.id.location }
        if case .sequence(let entries, _)? = operation.parameter("outputs"), entries.count == action.outputFiles.count,
            let position = action.outputFiles.firstIndex(where: { PathResolver.normalized($0) == path })
        {
            return entries[position].location
        }
        return (operation.parameter("outputs") ?? operation.parameter("path"))?.location ?? operation.id.location
    }

    /// `path` relative to the pipeline file's directory when inside it.
    func displayPath(_ path: String) -> String {
        let directory = PathResolver.normalized(pipelineDirectory)
        return path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
    }

    /// Where `entry` is written in `operation`: the list item or map key, when the value as
    /// written lines up with the checked one (a list spliced from a variable may not); else the
    /// parameter's value; nil when the parameter is not written.
    func entryLocation(_ entry: InvalidParameterEntries.Entry, in operation: OperationSpec) -> SourceLocation? {
        guard let value = operation.parameter(entry.parameter) else { return nil }
        switch (entry.position, value) {
        case (.index(let index), .sequence(let items, _)) where items.indices.contains(index):
            return items[index].location
        case (.key(let key), .mapping(let pairs, _)):
            return pairs.first { $0.key.text == key }?.key.location ?? value.location
        default:
            return value.location
        }
    }
}
