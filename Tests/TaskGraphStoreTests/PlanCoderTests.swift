import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// A kept plan reads back as the plan the pipeline file gives: every node's id, type, edges,
/// settings, setup and location, and an action of the same type.
@Suite struct PlanCoderTests {
    private static let pipeline = """
        version: 1
        vars: {photos: [lake, harbor]}
        pools: {net: 2}
        defaults: {retries: 2, timeout: 90s}
        operations:
          show:
            foreach: ${photos}
            op: exec
            command: [sh, -c, 'echo "$0 $GREETING $PASSED"', "${item}"]
            env: {GREETING: hello, OTHER: x}
            env_passthrough: [PASSED]
            cwd: work
            inputs: ['in/*.txt']
            outputs: ['out/${item}.txt']
            grace_period: 500ms
            pool: net
            priority: 3
          other: {op: group, cache: false, exclusive: true}
          keep:
            foreach: ${photos}
            op: save
            needs: [other, show]
            input: show
            path: kept/${item}.txt
          cleanup: {op: group, needs: keep, when: always}
        """

    private static let key = ContentDigest.sha256(of: Data("key".utf8))

    private func planned(_ text: String = pipeline) throws -> Pipeline {
        try Pipeline.load(
            text: text, file: "/pipelines/photos.yaml",
            options: PipelineOptions(
                environment: ["PATH": "/usr/bin:/bin", "PASSED": "through"], outputDirectory: "/tmp/out",
                registry: .core))
    }

    @Test func aPlanReadsBackAsThePlanTheFileGives() throws {
        let pipeline = try planned()
        let data = try #require(PlanCoder.encode(pipeline, key: Self.key))
        let decoded = try #require(PlanCoder.decode(data, key: Self.key))
        #expect(decoded.matches(pipeline))
        let read = try #require(decoded.pipeline(registry: .core))
        #expect(read.file == pipeline.file && read.name == pipeline.name && read.pools == ["net": 2])
        #expect(read.outputDirectory == "/tmp/out" && read.executor == nil && read.store == nil)
        #expect(read.graph.nodes.count == 6)
        for (node, original) in zip(read.graph.nodes, pipeline.graph.nodes) {
            #expect(node.id == original.id && node.type == original.type && node.dependencies == original.dependencies)
            #expect(
                node.settings == original.settings && node.setup == original.setup && node.location == original.location
            )
            #expect(type(of: node.action) == type(of: original.action))
        }
        #expect(read.graph.nodes[0].settings.retries == 2 && read.graph.nodes[0].settings.pool == "net")
        #expect(read.graph.nodes[0].setup?.parameters.values["grace_period"] == .duration(.milliseconds(500)))
        #expect(read.graph.index(of: "keep[harbor]") == 4)
    }

    @Test func aPlanOfManyPiecesKeepsItsOrderAndEdges() throws {
        var text = "version: 1\noperations:\n"
        for index in 0..<2_500 {
            text +=
                "  n\(index): {op: exec, command: [echo, '\(index)']\(index > 0 ? ", needs: [n\(index / 2)]" : "")}\n"
        }
        let pipeline = try planned(text)
        let data = try #require(PlanCoder.encode(pipeline, key: Self.key))
        let read = try #require(PlanCoder.decode(data, key: Self.key)?.pipeline(registry: .core))
        #expect(read.graph.nodes.map(\.id) == pipeline.graph.nodes.map(\.id))
        #expect(read.graph.nodes.map(\.dependencies) == pipeline.graph.nodes.map(\.dependencies))
        #expect(read.graph.nodes[2_499].setup?.dependencies == ["n1249"])
    }

    @Test func anotherKeyOrAnyDamageReadsAsNoPlan() throws {
        let data = try #require(PlanCoder.encode(try planned(), key: Self.key))
        #expect(PlanCoder.decode(data, key: ContentDigest.sha256(of: Data("other".utf8))) == nil)
        for length in stride(from: 0, to: data.count, by: 7) {
            #expect(PlanCoder.decode(data.prefix(length), key: Self.key) == nil)
        }
        #expect(PlanCoder.decode(data + [0], key: Self.key) == nil)
    }

    @Test func aPipelineWithWarningsIsNotKept() throws {
        let pipeline = try planned(
            """
            version: 1
            operations:
              a: {op: exec, command: [echo]}
              b: {op: exec, command: [echo], foreach: []}
            """)
        #expect(!pipeline.warnings.isEmpty)
        #expect(PlanCoder.encode(pipeline, key: Self.key) == nil)
    }

    @Test func theStoreKeepsOnePlanPerCommandUnderTheKeyOfTheFileAndExecutable() async throws {
        let store = try temporaryStore()
        let directory = try emptyDirectory()
        let executable = directory + "/taskgraph"
        try writeFile("build 1", to: executable)
        let invocation = ContentDigest.sha256(of: Data("command".utf8))
        let pipeline = try planned()
        let bytes = Data(Self.pipeline.utf8)
        let key = try #require(ContentStore.planKey(pipeline: bytes, executable: executable))
        #expect(await store.plan(invocation: invocation, key: key, registry: .core) == nil)
        await store.rememberPlan(pipeline, invocation: invocation, key: key)
        let read = try #require(await store.plan(invocation: invocation, key: key, registry: .core))
        #expect(read.graph.nodes.map(\.setup) == pipeline.graph.nodes.map(\.setup))

        // Another pipeline file or another build of the executable has another key.
        #expect(ContentStore.planKey(pipeline: bytes + Data(" ".utf8), executable: executable) != key)
        try writeFile("build 2", to: executable)
        let rebuilt = try #require(ContentStore.planKey(pipeline: bytes, executable: executable))
        #expect(rebuilt != key)
        #expect(await store.plan(invocation: invocation, key: rebuilt, registry: .core) == nil)
        #expect(ContentStore.planKey(pipeline: bytes, executable: directory + "/missing") == nil)
    }
}

extension PlanCoder.Decoded: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.file == rhs.file && lhs.name == rhs.name && lhs.nodes == rhs.nodes && lhs.pools == rhs.pools
    }
}
