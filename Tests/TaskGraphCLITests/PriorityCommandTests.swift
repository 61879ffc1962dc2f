import Foundation
import Testing

/// `priority:` from the file to the event stream. The operations are identical, so the run
/// uses --no-cache (a store would rightly reuse the first result).
@Suite struct PriorityCommandTests {
    @Test func oneLaneStartsTenReadyOperationsByPriority() async throws {
        let directory = try fixtureDirectory(["priorities.yaml"])
        let result = try await TaskGraphProcess.run(
            ["run", "priorities.yaml", "--jobs", "1", "--json", "--no-cache"], in: directory)
        #expect(result.status == 0)
        let started = result.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"event":"started""#) }
        let ids = started.compactMap { line in line.firstMatch(of: #/"id":"([a-z])"/#).map { String($0.1) } }
        // 50, very-high (8), high (4) ×2, normal (0) ×2, low by default (-4) ×2, very-low (-8), -50.
        #expect(ids == ["d", "b", "f", "i", "c", "j", "a", "g", "e", "h"])
    }

    @Test func dryRunShowsPriorities() async throws {
        let directory = try fixtureDirectory(["priorities.yaml"])
        let result = try await TaskGraphProcess.run(
            ["run", "priorities.yaml", "--dry-run", "--only", "b", "d"], in: directory)
        #expect(
            result.stdout == """
                plan: 2 operations in 1 level
                level 1:
                  b  (exec, command=[true], grace_period=2s, priority=very-high)
                    run (not cacheable: exec declares no inputs or outputs; set cache: true to reuse it)
                  d  (exec, command=[true], grace_period=2s, priority=50)
                    run (not cacheable: exec declares no inputs or outputs; set cache: true to reuse it)
                2 to run, 0 cached

                """)
    }
}
