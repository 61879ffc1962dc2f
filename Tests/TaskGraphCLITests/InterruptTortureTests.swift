import Foundation
import Testing

/// A CI-sized run of scripts/torture.py against the built binary: the photos pipeline, served
/// slowly, interrupted at random moments by SIGINT or SIGTERM, twice by SIGINT, and `validate` of
/// a large file interrupted. Every run must die by its signal (or finish), leave no temporary or
/// partial file and no process behind. The latency limit and the per-run limit here are hang
/// guards, generous enough for a sanitizer build beside CPU-heavy tests; bench/README.md has the
/// release figures.
@Suite struct InterruptTortureTests {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/torture.py").standardizedFileURL

    /// Under ThreadSanitizer the sanitizer's runtime delays signal handlers to points of its own
    /// choosing (seen: 26 s from SIGINT to exit, and a `validate` finishing as if never
    /// signalled), so this timing-driven test runs in the plain pass only
    /// (`scripts/sanitize.sh` sets TASKGRAPH_TEST_SANITIZER).
    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["TASKGRAPH_TEST_SANITIZER"] == "thread",
            "ThreadSanitizer delays signal handling"))
    func interruptedRunsExitCleanlyAndLeaveNothingBehind() async throws {
        let result = try await runPython([
            Self.script.path, "--binary", TaskGraphProcess.binary.path, "--runs", "6", "--double-runs", "2",
            "--validate-runs", "1", "--validate-operations", "5000", "--max-delay", "3",
            "--latency-limit", "20", "--hang-guard", "300",
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("torture: 6 runs, 6 passed, 0 failed"), "\(result.output)")
        #expect(result.output.hasSuffix("torture: passed\n"), "\(result.output)")
    }
}
