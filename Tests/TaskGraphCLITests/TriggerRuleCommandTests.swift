import Foundation
import Testing

/// `when:` on real programs: a cleanup that removes a temporary directory after a failed step,
/// and a failure handler that runs only when something failed.
@Suite struct TriggerRuleCommandTests {
    private func exists(_ name: String, in directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
    }

    @Test func cleanupRemovesTheTemporaryDirectoryAfterAFailedStep() async throws {
        let directory = try fixtureDirectory(["cleanup.yaml"])
        let result = try await TaskGraphProcess.run(["run", "cleanup.yaml", "--jobs", "1"], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("FAILED    build: 'sh' exited with status 2: compiler crashed\n"))
        #expect(result.stderr.contains("skipped   publish: 'build' failed\n"))
        #expect(result.stderr.contains("\ncleanup    ok    "))
        #expect(result.stderr.contains("when: always, after 'build' failed; exited with status 0, 0 B of output\n"))
        #expect(result.stderr.contains("when: failure, after 'publish' skipped; exited with status 0, 0 B of output\n"))
        #expect(result.stderr.contains("\n3 ok, 1 failed, 1 skipped in "))
        #expect(!exists("work.tmp", in: directory), "the cleanup removed the temporary directory")
        #expect(exists("notified", in: directory))
        #expect(!exists("published", in: directory))
    }

    @Test func onSuccessTheFailureHandlerIsBypassedAndCleanupStillRuns() async throws {
        let directory = try fixtureDirectory(["cleanup.yaml"])
        let result = try await TaskGraphProcess.run(["run", "cleanup.yaml", "--var", "status=0"], in: directory)
        #expect(result.status == 0)
        #expect(result.stderr.contains("bypassed  notify: when: failure, and nothing it needs failed\n"))
        #expect(result.stderr.contains("\n4 ok, 1 bypassed in "))
        #expect(!exists("work.tmp", in: directory))
        #expect(exists("published", in: directory))
        #expect(!exists("notified", in: directory))
    }
}
