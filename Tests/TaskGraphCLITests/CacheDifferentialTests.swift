import Foundation
import Testing

/// A CI-sized run of scripts/cache-differential.py (1,000 steps over several seeds by hand):
/// after every random edit, an incremental run's files equal a clean run's, side-effect execs
/// ran, and exactly the operations whose inputs changed ran.
@Suite struct CacheDifferentialTests {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/cache-differential.py").standardizedFileURL

    @Test func incrementalRunsMatchCleanRunsAndRunOnlyWhatChanged() async throws {
        let (status, output) = try await runPython([
            Self.script.path, "--binary", TaskGraphProcess.binary.path, "--steps", "25", "--seed", "15",
        ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("cache-differential: 25 steps, 25 passed, 0 failed"), "\(output)")
    }
}
