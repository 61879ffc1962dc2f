import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// How an up-to-date check loads a pipeline: in full the first time, leaving its plan for the
/// caller to keep (beside the run), then from that plan.
@Suite struct UpToDateCheckTests {
    private static let text = """
        version: 1
        operations:
          hello: {op: exec, command: [echo, hello]}
        """

    @Test func aPipelineLoadedInFullIsKeptAsAPlanOnlyWhenTheCallerKeepsIt() async throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (file, executable) = (directory + "/hello.yaml", directory + "/taskgraph")
        try writeFile(Self.text, to: file)
        try writeFile("build 1", to: executable)
        let check = UpToDateCheck(
            store: ContentStore(root: directory + "/cache", registry: .core, flushingWrites: false),
            invocation: ContentDigest.sha256(of: Data("run hello.yaml".utf8)), pipeline: file, watched: [])
        let loads = Locked(0)
        let load = { @Sendable (bytes: Data?) async throws -> Pipeline in
            loads.withLock { $0 += 1 }
            return try Pipeline.load(
                bytes: bytes ?? Data(), file: file,
                options: PipelineOptions(
                    environment: ["PATH": "/usr/bin:/bin"], outputDirectory: directory + "/out", registry: .core))
        }

        let first = try await check.loadPipeline(file, executable: executable, registry: .core, with: load)
        let key = try #require(first.planKey)
        #expect(!FileManager.default.fileExists(atPath: check.store.layout.plan(check.invocation)))
        let again = try await check.loadPipeline(file, executable: executable, registry: .core, with: load)
        #expect(loads.withLock { $0 } == 2 && again.planKey == key)

        await check.keepPlan(first.pipeline, key: key)
        let planned = try await check.loadPipeline(file, executable: executable, registry: .core, with: load)
        #expect(loads.withLock { $0 } == 2 && planned.planKey == nil)
        #expect(planned.pipeline.graph.nodes.map(\.id) == ["hello"])
    }
}
