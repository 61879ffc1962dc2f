/// Finds output files that more than one operation instance writes: which write would survive
/// depends on scheduling, so two writers of one path are an error before anything runs. Paths
/// are compared after expansion and normalisation (`x.txt`, `./x.txt` and `a/../x.txt` are one
/// file).
enum OutputWriters {
    /// An error for every output path with more than one writer among `nodes`, at the
    /// declaration of its second writer, with a note at each writer's.
    static func diagnostics(_ nodes: [ExecutionGraph.Node], outputDirectory: String) -> [Diagnostic] {
        var writers: [String: [Int]] = [:]
        writers.reserveCapacity(nodes.count)
        for index in nodes.indices {
            guard let action = nodes[index].action as? any CacheableAction else { continue }
            for path in action.outputFiles {
                writers[PathResolver.normalized(path), default: []].append(index)
            }
        }
        let prefix = PathResolver.normalized(outputDirectory) + "/"
        return writers.compactMap { path, indices in
            guard indices.count > 1 else { return nil }
            let shown = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
            let names = indices.prefix(3).map { "'\(nodes[$0].id)'" }
            let more = indices.count > 3 ? " and \(indices.count - 3) more" : ""
            let message = "'\(shown)' is written by more than one operation: "
                + names.joined(separator: ", ") + more
                + "; each output file may have one writer"
            let notes = indices.prefix(3).compactMap { index in
                nodes[index].location.map { Diagnostic.note("'\(shown)' is written by '\(nodes[index].id)' here", at: $0) }
            }
            return .error(message, at: nodes[indices[1]].location ?? SourceLocation(file: "", line: 1, column: 1), notes: notes)
        }
    }
}
