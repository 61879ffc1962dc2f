import Foundation
import OperationTestSupport
import TaskGraphCore
import Testing

@Suite struct ClusterSettingsTests {
    /// The core with one executor registered, `grid`, and its own key `grid_args`.
    private static let registry = {
        var registry = OperationRegistry.core
        registry.register(
            ExecutorDeclaration(
                "grid", summary: "as jobs of a grid",
                settings: [
                    ParameterSpec("grid_args", .stringList(minimumCount: 0), optional: true, "Further grid arguments.")
                ]))
        return registry
    }()

    @Test func operationKeysOverrideDefaultsAndReachTheNodesSettings() throws {
        let graph = try plannedGraph(
            """
            version: 1
            defaults:
              memory: 2G
              time: 10m
              partition: batch
              fuse: true
            operations:
              tilt:
                op: exec
                command: [true]
                cpus: 4
                time: 90s
                grid_args: [--qos=short]
              all:
                op: group
                needs: tilt
                executor: local
                fuse: false
            """, registry: Self.registry)
        #expect(
            graph.nodes[0].settings.cluster
                == ClusterSettings(
                    cpus: 4, memory: "2G", time: .seconds(90), partition: "batch",
                    executorSettings: ["grid_args": .list(["--qos=short"])], fuse: true))
        #expect(
            graph.nodes[1].settings.cluster
                == ClusterSettings(
                    executor: "local", memory: "2G", time: .seconds(600), partition: "batch"))
    }

    @Test func wrongTypesAndRangesAreReportedWhereTheyAreWritten() {
        #expect(
            diagnostics(
                """
                version: 1
                defaults:
                  memory: +5M
                operations:
                  a:
                    op: exec
                    command: [true]
                    executor: cloud
                    cpus: 0
                    memory: 1.5G
                    time: 500ms
                    grid_args: --qos=short
                    fuse: 3
                """, registry: Self.registry) == [
                    "test.yaml:3:11: error: 'defaults': 'memory' must be a size such as 512M or 4G, not '+5M'",
                    "test.yaml:8:15: error: operation 'a': 'executor' must be one of local, grid, not 'cloud'",
                    "test.yaml:9:11: error: operation 'a': 'cpus' must be a whole number from 1 to 4096, not '0'",
                    "test.yaml:10:13: error: operation 'a': 'memory' must be a size such as 512M or 4G, not '1.5G'",
                    "test.yaml:11:11: error: operation 'a': 'time' must be at least 1s",
                    "test.yaml:12:16: error: operation 'a': 'grid_args' must be a list of strings, not '--qos=short'",
                    "test.yaml:13:11: error: operation 'a': 'fuse' must be true or false, not '3'",
                ])
    }

    @Test func theClusterKeysAreNotPartOfTheCacheKey() throws {
        let plain = try plannedGraph("version: 1\noperations:\n  a:\n    op: exec\n    command: [true]\n")
        let placed = try plannedGraph(
            "version: 1\noperations:\n  a:\n    op: exec\n    command: [true]\n    memory: 4G\n    cpus: 2\n")
        #expect(plain.nodes[0].setup == placed.nodes[0].setup)
    }

    @Test func theFileNamesItsExecutorAndStore() throws {
        let pipeline = try Pipeline.load(
            text: "version: 1\nexecutor: grid\nstore: shared/store\noperations:\n  a:\n    op: group\n",
            file: "test.yaml",
            options: PipelineOptions(outputDirectory: "/tmp/out", registry: Self.registry))
        #expect(pipeline.executor == "grid")
        #expect(pipeline.store == FileManager.default.currentDirectoryPath + "/shared/store")
        #expect(
            diagnostics(
                "version: 1\nexecutor: cloud\nstore: [a]\noperations:\n  a:\n    op: group\n", registry: Self.registry)
                == [
                    "test.yaml:2:11: error: top-level: 'executor' must be one of local, grid, not 'cloud'",
                    "test.yaml:3:8: error: top-level: 'store' must be a string, not a list",
                ])
    }

    @Test func withoutARegisteredExecutorOnlyLocalIsNamedAndNoExecutorsKeyIsKnown() {
        #expect(
            diagnostics("version: 1\nexecutor: grid\noperations:\n  a:\n    op: group\n    grid_args: [x]\n") == [
                "test.yaml:2:11: error: top-level: 'executor' must be one of local, not 'grid'",
                "test.yaml:6:5: error: operation 'a': unknown key 'grid_args' for 'group'",
            ])
    }

    @Test func theKeysOfARegisteredExecutorAreListedAfterPartitionAndItsNameUnderExecutor() {
        let keys = PipelineKeys.operation(for: Self.registry)
        let names = keys.map(\.name)
        #expect(names[names.firstIndex(of: "partition")! + 1] == "grid_args")
        #expect(keys.first { $0.name == "executor" }?.type == "local | grid")
        #expect(
            PipelineKeys.topLevel(for: Self.registry).first { $0.name == "executor" }?.summary
                == "Where operations run: here, or as jobs of a grid (default local); --executor overrides.")
        #expect(!PipelineKeys.operation(for: .core).map(\.name).contains("grid_args"))
    }
}
