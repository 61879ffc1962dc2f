import Foundation
import Testing

/// The single-node Slurm cluster of `scripts/slurm-cluster.sh`, started before the tests of a
/// suite with this trait and stopped after them. A cluster that cannot start fails the suite
/// with the script's message: nothing is skipped.
struct SlurmCluster: SuiteTrait, TestScoping {
    /// The repository's root.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// The environment clients need (`SLURM_CONF`), set while the suite runs.
    nonisolated(unsafe) static var environment: [String: String?] = [:]
    // nonisolated(unsafe): written once by `provideScope` before the suite's tests start (they
    // run one at a time, after it), read only by those tests.

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let started = try Self.script("start")
        guard started.status == 0, let line = started.stdout.split(separator: "\n").last, line.hasPrefix("export SLURM_CONF=") else {
            Issue.record("scripts/slurm-cluster.sh start failed: \(started.stderr)")
            return
        }
        Self.environment = ["SLURM_CONF": String(line.dropFirst("export SLURM_CONF=".count))]
        defer { _ = try? Self.script("stop") }
        try await function()
    }

    /// Runs `scripts/slurm-cluster.sh action`.
    static func script(_ action: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try command(["bash", repository.appendingPathComponent("scripts/slurm-cluster.sh").path, action])
    }

    /// Runs `arguments` (a Slurm client, with the cluster's environment) to completion.
    static func command(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for case (let name, let value?) in Self.environment { environment[name] = value }
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}

extension Trait where Self == SlurmCluster {
    /// Runs the suite against a single-node Slurm cluster on 127.0.0.1.
    static var slurmCluster: SlurmCluster { SlurmCluster() }
}
