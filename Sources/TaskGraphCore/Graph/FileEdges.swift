/// The dependencies files make: an operation that reads a file (a `load`'s path, an `exec`'s
/// `inputs:`, literal or pattern) that another operation writes (an `exec`'s `outputs:`, a
/// `save`'s path) needs that operation, without a `needs:` entry, as make and Snakemake infer
/// it. Paths are compared after resolving and normalising; a pattern is matched against the
/// written paths' text (they need not exist yet).
struct FileEdges {
    /// One inferred dependency: `reader` needs `writer` because it reads `path`.
    struct Edge: Hashable {
        /// The reading node's index.
        var reader: Int
        /// The writing node's index.
        var writer: Int
        /// The file, absolute.
        var path: String
        /// The position of the read among the reader's `FileReadingAction.filesRead`.
        var readIndex: Int
    }

    /// Every inferred dependency among `nodes` that no `needs:` made already, at most one per
    /// pair of nodes (the first file read), ordered by reader and read.
    let edges: [Edge]

    /// Finds the edges among `nodes`.
    init(_ nodes: [ExecutionGraph.Node]) {
        var writers: [String: Int] = [:]
        for index in nodes.indices {
            guard let action = nodes[index].action as? any FileWritingAction else { continue }
            // Two writers of one file are an error of their own (`OutputWriters`); the first is kept.
            for path in action.outputFiles where writers[PathResolver.normalized(path)] == nil {
                writers[PathResolver.normalized(path)] = index
            }
        }
        guard !writers.isEmpty else {
            edges = []
            return
        }
        let written = writers.keys.sorted()
        var edges: [Edge] = []
        for reader in nodes.indices {
            guard let action = nodes[reader].action as? any FileReadingAction else { continue }
            var linked = Set(nodes[reader].dependencies)
            linked.insert(reader)
            for (readIndex, read) in action.filesRead.enumerated() {
                let normalized = PathResolver.normalized(read)
                let matches =
                    PathGlob.isPattern(read)
                    ? written.filter { PathGlob.matches(normalized, path: $0) }
                    : (writers[normalized] != nil ? [normalized] : [])
                for path in matches {
                    guard let writer = writers[path], linked.insert(writer).inserted else { continue }
                    edges.append(Edge(reader: reader, writer: writer, path: path, readIndex: readIndex))
                }
            }
        }
        self.edges = edges
    }

    /// Whether the file read as `read` (a path or pattern, absolute) is the file at `path`
    /// (absolute, normalised): the path itself, or one the pattern matches by its text. The rule
    /// `init` applies, for one pair (messages).
    static func read(_ read: String, names path: String) -> Bool {
        let normalized = PathResolver.normalized(read)
        return normalized == path || (PathGlob.isPattern(read) && PathGlob.matches(normalized, path: path))
    }

    /// Adds the edges to `nodes`: each reader needs its writers after what it names in `needs:`.
    func apply(to nodes: inout [ExecutionGraph.Node]) {
        for edge in edges {
            nodes[edge.reader].dependencies.append(edge.writer)
            let writerID = nodes[edge.writer].id
            nodes[edge.reader].setup?.dependencies.append(writerID)
            nodes[edge.reader].fileDependencies[edge.writer] = edge.path
        }
    }

    /// An error for every distinct cycle of `nodes` (edges applied) that goes through a file,
    /// with a note for each of its edges: at the `needs:` entry (`needLocation`) or at the read
    /// (`readLocation`), naming the file. Cycles of `needs:` alone are reported by
    /// `CycleReporter`.
    static func cycleDiagnostics(
        _ nodes: [ExecutionGraph.Node], displayPath: (String) -> String,
        needLocation: (_ from: Int, _ to: Int) -> SourceLocation,
        readLocation: (_ node: Int, _ path: String) -> SourceLocation
    ) -> [Diagnostic] {
        let graph = AdjacencyList(successors: nodes.map(\.dependencies))
        return findCycles(graph).compactMap { cycle in
            let steps = cycle.indices.map { (from: cycle[$0], to: cycle[($0 + 1) % cycle.count]) }
            guard steps.contains(where: { nodes[$0.from].fileDependencies[$0.to] != nil }) else { return nil }
            let notes = steps.map { step -> Diagnostic in
                let (from, to) = (nodes[step.from].id, nodes[step.to].id)
                guard let path = nodes[step.from].fileDependencies[step.to] else {
                    return .note("'\(from)' needs '\(to)' here", at: needLocation(step.from, step.to))
                }
                return .note(
                    "'\(from)' reads '\(displayPath(path))', which '\(to)' writes", at: readLocation(step.from, path))
            }
            let ids = cycle.map { nodes[$0].id }
            return .error(
                "dependency cycle: " + (ids + [ids[0]]).joined(separator: " -> "), at: notes[0].location, notes: notes)
        }
    }
}
