import Foundation
import TaskGraphCore

/// Incremental runs of graphs built in Swift over a content-addressed store, as `taskgraph run`
/// makes them of a pipeline file: a node whose key matches a recorded result is reused; after
/// a run that reused or recorded every node, the next run of the same graph checks the `stat`
/// of the files that rested on and, when none changed, reuses every node without computing a
/// key (the up-to-date snapshot); what a change reaches is looked up, the rest reused as it
/// was. After each run the session remembers the nodes' key components (what changed, in
/// explanations) and ids, and keeps the store within its size.
///
///     let runs = IncrementalRuns(storeDirectory: work + "/store", registry: results, name: "photos")
///     let first = await runs.run(graph, on: engine)    // every node runs
///     let second = await runs.run(graph, on: engine)   // nothing changed: every node cached
///
/// The snapshot is kept under a digest of `name`, the graph (each node's id, type, settings,
/// what it needs and its keyed parameters), this executable, the working directory and the
/// environment; it also rests on this executable's file and, when a node starts a program it
/// looks up on `PATH` (an `exec`), on `PATH`'s directories.
public struct IncrementalRuns: Sendable {
    /// Where the store is (made at the first run).
    public let storeDirectory: String
    /// What the store reads results back with.
    public let registry: ResultRegistry
    /// What this program's runs are remembered under, like a pipeline file's path for
    /// `taskgraph run`.
    public let name: String
    /// The size the store is kept within after each run.
    public let maxSize: Int64
    private let warn: @Sendable (String) -> Void

    /// Runs over the store at `storeDirectory`, read back with `registry` (with the kind of
    /// every result your actions make), remembered under `name`, kept within `maxSize`.
    /// - Parameter warn: is given what was not cached (a store that cannot be written), e.g.
    ///   `the cache was not updated after the run: …`; by default written to standard error.
    public init(
        storeDirectory: String, registry: ResultRegistry, name: String,
        maxSize: Int64 = CacheConfiguration.defaultMaxSize,
        warn: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data("warning: \($0)\n".utf8)) }
    ) {
        self.storeDirectory = storeDirectory
        self.registry = registry
        self.name = name
        self.maxSize = maxSize
        self.warn = warn
    }

    /// How a run went.
    public struct Outcome: Sendable {
        /// The engine's report.
        public var report: RunReport
        /// Whether nothing the last run rested on had changed: its nodes were reused from its
        /// snapshot without computing their keys.
        public var nothingChanged: Bool
    }

    /// Runs `graph` on `engine` against the store, as `Engine.run` does (`events` and
    /// `results` as it takes them), then remembers what the next run starts from.
    public func run(
        _ graph: ExecutionGraph, on engine: Engine = Engine(), events: (any EventSink)? = nil,
        results: (any ResultSink)? = nil
    ) async -> Outcome {
        let session = await StoreSession.open(
            root: storeDirectory, registry: registry, pipeline: name, maxSize: maxSize, flushingWrites: false,
            warn: warn)
        let check = upToDateCheck(of: graph, in: session.store)
        let start = await check?.start(forRun: true)
        var startedFrom: (observing: Bool, known: KnownResults?) = (false, nil)
        if let check, let start { startedFrom = check.observe(session, from: start) }
        let cache = session.runCache(known: startedFrom.known)
        let report = await engine.run(graph, events: events, cache: cache, results: results)
        let ran = graph.including(report)
        if let check, let start, startedFrom.observing {
            await check.remember(
                report, of: ran, cache: cache, pipeline: nil, onCluster: engine.options.remote != nil, start: start,
                in: session)
        }
        await session.finish(cache, report: report, graph: ran, wholeGraph: true)
        return Outcome(report: report, nothingChanged: start?.nothingChanged ?? false)
    }

    /// The check of `graph`'s snapshot, or nil when this process has none
    /// (`UpToDateCheck.currentProcess`).
    private func upToDateCheck(of graph: ExecutionGraph, in store: ContentStore) -> UpToDateCheck? {
        guard let process = UpToDateCheck.currentProcess() else { return nil }
        var identity =
            "taskgraph incremental runs 1\0" + name + "\0" + process.executable + "\0" + process.directory + "\0"
            + process.environment
        for node in graph.nodes {
            identity += "node\0" + node.id + "\0" + node.type + "\0" + node.settings.identityText + "\0"
            for dependency in node.dependencies { identity += graph.nodes[dependency].id + "\0" }
            if let action = node.action as? any CacheableAction {
                identity += KeyComponents.parameters(of: node, action: action).key.description + "\0"
                for file in action.outputFiles { identity += file + "\0" }
            }
        }
        // A program looked up on `PATH` may be shadowed by one added to an earlier directory.
        let looksUpPrograms = graph.nodes.contains { node in
            (node.action as? any ProgramStartingAction).map { !$0.programName.contains("/") } ?? false
        }
        return UpToDateCheck(
            store: store, invocation: ContentDigest.sha256(of: Data(identity.utf8)), pipeline: name,
            watched: [process.executable] + (looksUpPrograms ? process.searchPath : []))
    }
}

extension NodeSettings {
    /// Every setting as text that is the same in every process for equal settings, fields in a
    /// fixed order and the executor's settings sorted by name (a dictionary's own order differs
    /// from process to process).
    var identityText: String {
        var fields = [
            String(retries), timeout.map { String(describing: $0) } ?? "", pool ?? "", String(cache),
            String(cacheRequested), String(priority), exclusive.rawValue, when.rawValue,
            cluster.executor ?? "", cluster.cpus.map { String($0) } ?? "", cluster.memory ?? "",
            cluster.time.map { String(describing: $0) } ?? "", cluster.partition ?? "", String(cluster.fuse),
        ]
        for (name, value) in cluster.executorSettings.sorted(by: { $0.key < $1.key }) {
            fields.append(name + "=" + value.description)
        }
        return fields.joined(separator: "\u{1}")
    }
}
