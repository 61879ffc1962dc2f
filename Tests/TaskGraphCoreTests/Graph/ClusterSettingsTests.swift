import Foundation
import Testing
import TaskGraphCore
import OperationTestSupport

@Suite struct ClusterSettingsTests {
    @Test func operationKeysOverrideDefaultsAndReachTheNodesSettings() throws {
        let graph = try plannedGraph("""
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
                slurm_args: [--qos=short]
              all:
                op: group
                needs: tilt
                executor: local
                fuse: false
            """)
        #expect(graph.nodes[0].settings.cluster == ClusterSettings(
            cpus: 4, memory: "2G", time: .seconds(90), partition: "batch", slurmArguments: ["--qos=short"], fuse: true))
        #expect(graph.nodes[1].settings.cluster == ClusterSettings(
            executor: "local", memory: "2G", time: .seconds(600), partition: "batch"))
    }

    @Test func wrongTypesAndRangesAreReportedWhereTheyAreWritten() {
        #expect(diagnostics("""
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
                slurm_args: --qos=short
                fuse: 3
            """) == [
            "test.yaml:3:11: error: 'defaults': 'memory' must be a size such as 512M or 4G, not '+5M'",
            "test.yaml:8:15: error: operation 'a': 'executor' must be one of local, slurm, not 'cloud'",
            "test.yaml:9:11: error: operation 'a': 'cpus' must be a whole number from 1 to 4096, not '0'",
            "test.yaml:10:13: error: operation 'a': 'memory' must be a size such as 512M or 4G, not '1.5G'",
            "test.yaml:11:11: error: operation 'a': 'time' must be at least 1s",
            "test.yaml:12:17: error: operation 'a': 'slurm_args' must be a list of strings, not '--qos=short'",
            "test.yaml:13:11: error: operation 'a': 'fuse' must be true or false, not '3'",
        ])
    }

    @Test func theClusterKeysAreNotPartOfTheCacheKey() throws {
        let plain = try plannedGraph("version: 1\noperations:\n  a:\n    op: exec\n    command: [true]\n")
        let placed = try plannedGraph("version: 1\noperations:\n  a:\n    op: exec\n    command: [true]\n    memory: 4G\n    cpus: 2\n")
        #expect(plain.nodes[0].setup == placed.nodes[0].setup)
    }

    @Test func theFileNamesItsExecutorAndStore() throws {
        let pipeline = try Pipeline.load(
            text: "version: 1\nexecutor: slurm\nstore: shared/store\noperations:\n  a:\n    op: group\n", file: "test.yaml",
            options: PipelineOptions(outputDirectory: "/tmp/out"))
        #expect(pipeline.executor == "slurm")
        #expect(pipeline.store == FileManager.default.currentDirectoryPath + "/shared/store")
        #expect(diagnostics("version: 1\nexecutor: cloud\nstore: [a]\noperations:\n  a:\n    op: group\n") == [
            "test.yaml:2:11: error: top-level: 'executor' must be one of local, slurm, not 'cloud'",
            "test.yaml:3:8: error: top-level: 'store' must be a string, not a list",
        ])
    }
}
