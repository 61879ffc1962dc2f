import Foundation
import Synchronization
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// What a store session keeps after a run: the run's operation ids, and a single warning when
/// the store cannot be written.
@Suite struct StoreSessionTests {
    /// Two nodes built in code, `b` needing `a`, each making its id's bytes.
    private static func graph() throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        let a = try graph.add("a", action: ClosureAction { _ in BytesResult(Data("a".utf8)) })
        try graph.add("b", action: ClosureAction { _ in BytesResult(Data("b".utf8)) }, needs: [a])
        return graph
    }

    /// A session on a new store in `directory` after it finished a run of `graph()`, of the
    /// whole graph or not.
    private static func finishedRun(in directory: String, wholeGraph: Bool) async throws -> StoreSession {
        let session = await StoreSession.open(root: directory + "/cache", registry: .core, pipeline: "/p/ids.yaml") {
            _ in
        }
        let graph = try Self.graph()
        let cache = session.runCache()
        let report = await Engine().run(graph, cache: cache)
        await session.finish(cache, report: report, graph: graph, wholeGraph: wholeGraph)
        return session
    }

    @Test func aWholeRunKeepsItsIDsEachEndedByANulAfterTheHeader() async throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = try await Self.finishedRun(in: directory, wholeGraph: true)
        let file = session.store.layout.runIDs(pipeline: "/p/ids.yaml")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("taskgraph run ids 2\na\0b\0".utf8))
        #expect(await session.store.lastRunIDs(pipeline: "/p/ids.yaml") == ["a", "b"])
    }

    @Test func aRunOfSomeTargetsKeepsNoIDs() async throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = try await Self.finishedRun(in: directory, wholeGraph: false)
        #expect(!FileManager.default.fileExists(atPath: session.store.layout.runIDs(pipeline: "/p/ids.yaml")))
    }

    /// The up-to-date check writes its plan before the session opens: the store is new all the
    /// same, so the first run's eviction check trusts what it added instead of listing it.
    @Test func aStoreFirstWrittenAfterItsUpToDateCheckStartedIsNewToTheSession() async throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let root = directory + "/cache"
        let store = ContentStore(root: root, registry: .core, flushingWrites: false)
        let check = UpToDateCheck(
            store: store, invocation: ContentDigest.sha256(of: Data("run".utf8)), pipeline: "/p/ids.yaml", watched: [])
        _ = await check.start()
        _ = try await store.storeResult(BytesResult(Data("written before the session".utf8)))
        #expect(FileManager.default.fileExists(atPath: root))
        let session = await StoreSession.open(
            root: root, registry: .core, pipeline: "/p/ids.yaml", flushingWrites: false, prepared: store
        ) { _ in }
        #expect(session.storeIsNew)
        let later = await StoreSession.open(root: root, registry: .core, pipeline: "/p/ids.yaml") { _ in }
        #expect(!later.storeIsNew)
    }

    @Test func aStoreThatCannotBeWrittenWarnsOnceAfterTheRun() async throws {
        // Below a regular file, so even root cannot write it.
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/plain"
        try writeFile("", to: file)
        let warnings = Warnings()
        let session = await StoreSession.open(root: file + "/cache", registry: .core, pipeline: "/p/ids.yaml") {
            warning in
            warnings.said.withLock { $0.append(warning) }
        }
        let graph = try Self.graph()
        let cache = session.runCache()
        let report = await Engine().run(graph, cache: cache)
        #expect(report.succeeded)
        await session.finish(cache, report: report, graph: graph, wholeGraph: true)
        #expect(
            warnings.said.withLock { $0 } == [
                "the cache was not updated after the run: cannot write to the cache at \(file)/cache: Not a directory"
            ])
    }
}

/// What a session said.
private final class Warnings: Sendable {
    let said = Mutex<[String]>([])
}
