import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// Incremental runs of a graph built in Swift: the first runs every node, the next takes the
/// up-to-date snapshot's shortcut, a change takes the full path and reuses what it does not reach.
@Suite struct IncrementalRunsTests {
    /// A directory with `input.txt` (written long enough ago to be trusted by its `stat`) and a
    /// store, and the graph that loads the input and saves a copy to `out/copy.txt`.
    private struct Workspace {
        let directory: String
        let runs: IncrementalRuns

        init() throws {
            directory = try emptyDirectory("incremental")
            try writeFile("one", to: directory + "/input.txt")
            backdate(directory + "/input.txt", by: 60)
            runs = IncrementalRuns(storeDirectory: directory + "/store", registry: .core, name: "copy")
        }

        /// The graph, saving to `saved` (a name below `out/`).
        func graph(saving saved: String = "copy.txt") throws -> ExecutionGraph {
            try Pipeline.load(
                text: """
                    version: 1
                    name: copy
                    operations:
                      source: {op: load, path: input.txt}
                      keep: {op: save, needs: source, path: \(saved)}
                    """,
                file: directory + "/copy.yaml", options: PipelineOptions(outputDirectory: directory + "/out")
            ).graph
        }
    }

    /// Waits until this test executable, which a snapshot rests on, is old enough for its `stat`
    /// to show a change: a run right after the link leaves none.
    private static func settleExecutable() async throws {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let built = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        if let age = built.map({ -$0.timeIntervalSinceNow }), age < 2.2 {
            try await Task.sleep(for: .seconds(2.2 - age))
        }
    }

    @Test func theRunAfterTheFirstReusesEveryNodeWithoutLookingAnyUp() async throws {
        try await Self.settleExecutable()
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(atPath: workspace.directory) }
        let first = await workspace.runs.run(try workspace.graph())
        #expect(first.report.counts == [.succeeded: 2])
        #expect(!first.nothingChanged)
        #expect(try readFile(workspace.directory + "/out/copy.txt") == "one")

        let second = await workspace.runs.run(try workspace.graph())
        #expect(second.report.counts == [.cached: 2])
        #expect(second.nothingChanged)
        let third = await workspace.runs.run(try workspace.graph())
        #expect(third.report.counts == [.cached: 2])
        #expect(third.nothingChanged)
    }

    @Test func aChangedInputTakesTheFullPathAndRunsWhatItReaches() async throws {
        try await Self.settleExecutable()
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(atPath: workspace.directory) }
        _ = await workspace.runs.run(try workspace.graph())
        #expect(await workspace.runs.run(try workspace.graph()).nothingChanged)

        try writeFile("two", to: workspace.directory + "/input.txt")
        let changed = await workspace.runs.run(try workspace.graph())
        #expect(!changed.nothingChanged)
        #expect(changed.report.counts == [.succeeded: 2])
        #expect(try readFile(workspace.directory + "/out/copy.txt") == "two")
    }

    @Test func aChangedParameterIsNeverReusedFromTheSnapshot() async throws {
        try await Self.settleExecutable()
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(atPath: workspace.directory) }
        _ = await workspace.runs.run(try workspace.graph())
        #expect(await workspace.runs.run(try workspace.graph()).nothingChanged)

        let moved = await workspace.runs.run(try workspace.graph(saving: "moved.txt"))
        #expect(!moved.nothingChanged)
        #expect(moved.report.nodes.map(\.outcome.kind) == [.cached, .succeeded])
        #expect(try readFile(workspace.directory + "/out/moved.txt") == "one")
    }

    @Test func equalSettingsNameTheSnapshotAlikeWhateverOrderTheirDictionaryKeeps() throws {
        let names = (0..<16).map { "option\($0)" }
        var small: [String: ParameterValue] = [:]
        for name in names { small[name] = .string(name) }
        var large = [String: ParameterValue](minimumCapacity: 1024)
        for name in names.reversed() { large[name] = .string(name) }
        try #require(Array(small.keys) != Array(large.keys))

        let one = NodeSettings(cluster: ClusterSettings(executorSettings: small))
        let other = NodeSettings(cluster: ClusterSettings(executorSettings: large))
        #expect(one.identityText == other.identityText)
        var timedOut = one
        timedOut.timeout = .seconds(5)
        #expect(timedOut.identityText != one.identityText)
    }
}
