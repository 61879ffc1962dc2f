import Foundation
import Testing

/// The single-node Slurm cluster of `scripts/slurm-cluster.sh`, started before the tests of a
/// suite with this trait and stopped after them. A cluster that cannot start fails the suite
/// with the script's message: nothing is skipped.
struct SlurmCluster: SuiteTrait, TestScoping {
    /// The repository's root.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized

    /// The environment clients need (`SLURM_CONF`), set while the suite runs.
    nonisolated(unsafe) static var environment: [String: String?] = [:]
    // nonisolated(unsafe): written once by `provideScope` before the suite's tests start (they
    // run one at a time, after it), read only by those tests.

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let started = try await Self.script("start")
        guard started.status == 0, let line = started.stdout.split(separator: "\n").last,
            line.hasPrefix("export SLURM_CONF=")
        else {
            Issue.record("scripts/slurm-cluster.sh start failed: \(started.stderr)")
            return
        }
        Self.environment = ["SLURM_CONF": String(line.dropFirst("export SLURM_CONF=".count))]
        do {
            try await function()
        } catch {
            _ = try? await Self.script("stop")
            throw error
        }
        _ = try? await Self.script("stop")
    }

    /// Runs `scripts/slurm-cluster.sh action`.
    static func script(_ action: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await command(["bash", repository.appendingPathComponent("scripts/slurm-cluster.sh").path, action])
    }

    /// Runs `arguments` (a Slurm client, with the cluster's environment) to completion, its
    /// output captured in files (the daemons the script starts never hold a pipe of ours).
    static func command(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await TaskGraphProcess.run(
            arguments, in: repository, environment: environment, executable: URL(fileURLWithPath: "/usr/bin/env"))
    }
}

extension Trait where Self == SlurmCluster {
    /// Runs the suite against a single-node Slurm cluster on 127.0.0.1.
    static var slurmCluster: SlurmCluster { SlurmCluster() }
}
