import TaskGraphCore
import Testing

@testable import TaskGraphSlurm

@Suite struct SlurmExecutorDeclarationTests {
    private static let registry = {
        var registry = OperationRegistry.core
        registry.register(SlurmExecutor.declaration)
        return registry
    }()

    private func load(_ text: String) throws -> Pipeline {
        try Pipeline.load(
            text: text, file: "test.yaml",
            options: PipelineOptions(outputDirectory: "/tmp/out", registry: Self.registry))
    }

    @Test func slurmArgsReachTheNodeAndFollowItsResourceOptions() throws {
        let pipeline = try load(
            "version: 1\nexecutor: slurm\noperations:\n  a:\n    op: group\n    cpus: 2\n    slurm_args: "
                + "[--qos=short]\n"
        )
        #expect(pipeline.executor == "slurm")
        #expect(
            SbatchCommand.options(for: pipeline.graph.nodes[0].settings.cluster) == [
                "--cpus-per-task=2", "--qos=short",
            ])
    }

    @Test func itsDiagnosticsNameTheRegisteredExecutors() {
        let error = #expect(throws: PipelineError.self) {
            try load("version: 1\noperations:\n  a:\n    op: group\n    executor: cloud\n    slurm_args: --qos=short\n")
        }
        #expect(
            error?.diagnostics.map(\.description) == [
                "test.yaml:5:15: error: operation 'a': 'executor' must be one of local, slurm, not 'cloud'",
                "test.yaml:6:17: error: operation 'a': 'slurm_args' must be a list of strings, not '--qos=short'",
            ])
    }
}
