/// Finds output files that more than one operation instance writes: which write would survive
/// depends on scheduling, so two writers of one path are an error before anything runs. Paths
/// are compared after expansion and normalisation (`x.txt`, `./x.txt` and `a/../x.txt` are one
/// file).
enum OutputWriters {
    /// An error for every output path with more than one writer among `nodes`, where its
    /// second writer names it, with a note where each writer does.
    /// - Parameters:
    ///   - outputDirectory: paths inside it are shown relative to it; others with `displayPath`.
    ///   - writeLocation: where node `index` names the file `path` (absolute, normalised).
    static func diagnostics(
        _ nodes: [ExecutionGraph.Node], outputDirectory: String, displayPath: (String) -> String,
        writeLocation: (_ index: Int, _ path: String) -> SourceLocation
    ) -> [Diagnostic] {
        var writers: [String: [Int]] = [:]
        writers.reserveCapacity(nodes.count)
        for index in nodes.indices {
            guard let action = nodes[index].action as? any FileWritingAction else { continue }
            for path in action.outputFiles {
                writers[PathResolver.normalized(path), default: []].append(index)
            }
        }
        let prefix = PathResolver.normalized(outputDirectory) + "/"
        return writers.compactMap { path, indices in
            guard indices.count > 1 else { return nil }
            let shown = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : displayPath(path)
            let names = indices.prefix(3).map { "'\(nodes[$0].id)'" }
            let more = indices.count > 3 ? " and \(indices.count - 3) more" : ""
            let message =
                "'\(shown)' is written by more than one operation: "
                + names.joined(separator: ", ") + more
                + "; each output file may have one writer"
            let notes = indices.prefix(3).map { index in
                Diagnostic.note("'\(shown)' is written by '\(nodes[index].id)' here", at: writeLocation(index, path))
            }
            return .error(message, at: notes[1].location, notes: notes)
        }
    }
}
