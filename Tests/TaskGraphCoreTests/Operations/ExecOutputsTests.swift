import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// `exec`'s `outputs:`: checked at validation, required after success, and removed after every
/// failure (exit status, missing output, timeout, cancellation) so no half-written file remains.
@Suite struct ExecOutputsTests {
    private static let environment = ["PATH": "/usr/bin:/bin"]

    /// Runs `script` with `sh -c` in `directory`, which is the pipeline directory and its `cwd`.
    private func runScript(_ script: String, outputs: [String], in directory: URL) async throws -> any OperationResult {
        try await runOperation(
            ExecOperation.type,
            ["command": .list(["sh", "-c", script]), "cwd": .string("."), "outputs": .list(outputs)],
            directory: directory.path, environment: Self.environment)
    }

    /// The message of the error `body` throws.
    private func failure(_ body: () async throws -> Any) async -> String? {
        do {
            _ = try await body()
            Issue.record("expected a failure")
            return nil
        } catch {
            return "\(error)"
        }
    }

    private func exists(_ path: String, in directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path)
    }

    @Test func declaredOutputsThatExistLetItSucceed() async throws {
        let directory = try makeScratchDirectory()
        let result = try await runScript(
            "mkdir -p out && echo made > out/a.txt && echo done", outputs: ["out/a.txt"], in: directory)
        #expect((result as? ProcessOutput)?.data == Data("done\n".utf8))
        #expect(try String(contentsOf: directory.appendingPathComponent("out/a.txt"), encoding: .utf8) == "made\n")
        let action = try #require(
            try makeOperationAction(
                ExecOperation.type, ["command": .list(["true"]), "outputs": .list(["out/a.txt", "./b"])],
                directory: directory.path) as? any CacheableAction)
        #expect(action.outputFiles == [directory.path + "/out/a.txt", directory.path + "/b"])
    }

    @Test func aMissingOutputFailsAndTheOthersAreRemoved() async throws {
        let directory = try makeScratchDirectory()
        let message = await failure {
            try await runScript("echo x > made.txt", outputs: ["made.txt", "out/x.txt"], in: directory)
        }
        #expect(message == "exec 'op': declared output 'out/x.txt' was not created")
        #expect(!exists("made.txt", in: directory))
    }

    @Test func aDirectoryIsNotAnOutputAndIsLeftAlone() async throws {
        let directory = try makeScratchDirectory()
        let message = await failure { try await runScript("mkdir out", outputs: ["out"], in: directory) }
        #expect(message == "exec 'op': declared output 'out' is not a file")
        #expect(exists("out", in: directory))
    }

    @Test func outputsAreRemovedWhenTheProgramFails() async throws {
        let directory = try makeScratchDirectory()
        let message = await failure {
            try await runScript("echo half > out.txt; echo broken >&2; exit 3", outputs: ["out.txt"], in: directory)
        }
        #expect(message == "'sh' exited with status 3: broken")
        #expect(!exists("out.txt", in: directory))
    }

    @Test func outputsAreRemovedWhenTheProgramCannotStart() async throws {
        let directory = try makeScratchDirectory()
        try Data("old\n".utf8).write(to: directory.appendingPathComponent("out.txt"))
        let message = await failure {
            try await runOperation(
                ExecOperation.type, ["command": .list(["no-such-program-here"]), "outputs": .list(["out.txt"])],
                directory: directory.path, environment: Self.environment)
        }
        #expect(message == "program 'no-such-program-here' not found on PATH")
        #expect(!exists("out.txt", in: directory))
    }

    @Test func outputsAreRemovedWhenTheRunIsCancelled() async throws {
        let directory = try makeScratchDirectory()
        let running = Task {
            try await runScript("echo half > out.txt; exec sleep 60", outputs: ["out.txt"], in: directory)
        }
        while !exists("out.txt", in: directory) {
            try await Task.sleep(for: .milliseconds(10))
        }
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(!exists("out.txt", in: directory))
    }

    /// The timeout counts from the operation's start, so on a machine busy with the rest of the
    /// suite the shell may not even have run when it fires; such a run proves nothing and the
    /// test tries again with a longer timeout until the script has written its half output.
    @Test func outputsAreRemovedWhenTheOperationTimesOut() async throws {
        for seconds in [2, 10, 40] {
            let directory = try makeScratchDirectory()
            let graph = try plannedGraph(
                """
                version: 1
                operations:
                  slow:
                    op: exec
                    command: [sh, -c, "echo half > out.txt; touch started; exec sleep 120"]
                    cwd: .
                    outputs: [out.txt]
                    timeout: \(seconds)s
                """, file: directory.path + "/test.yaml", environment: Self.environment)
            let report = await Engine().run(graph)
            #expect(report.nodes[0].outcome == .timedOut(.seconds(seconds)))
            #expect(!exists("out.txt", in: directory))
            if exists("started", in: directory) { return }
        }
        Issue.record("the script never started within any of the timeouts")
    }

    @Test func declaredPathsAreCheckedWhenThePipelineIsValidated() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  absolute: {op: exec, command: [true], outputs: [/tmp/x]}
                  climbing: {op: exec, command: [true], outputs: [out/../../x]}
                  home: {op: exec, command: [true], outputs: ["~/x"]}
                  empty-output: {op: exec, command: [true], outputs: [""]}
                  empty-input: {op: exec, command: [true], inputs: [a, ""]}
                  fine: {op: exec, command: [true], inputs: [/etc/hostname, "../*.c"], outputs: [out/../x]}
                """) == [
                    "test.yaml:3:51: error: operation 'absolute': 'outputs' holds '/tmp/x', which is not a relative "
                        + "path inside the pipeline file's directory",
                    "test.yaml:4:51: error: operation 'climbing': 'outputs' holds 'out/../../x', which is not a "
                        + "relative path inside the pipeline file's directory",
                    "test.yaml:5:47: error: operation 'home': 'outputs' holds '~/x', which is not a relative path "
                        + "inside the pipeline file's directory",
                    "test.yaml:6:55: error: operation 'empty-output': 'outputs' holds an empty path",
                    "test.yaml:7:56: error: operation 'empty-input': 'inputs' holds an empty path",
                ])
    }
}
