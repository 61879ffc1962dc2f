import Foundation
import Testing

/// Numbers too large for what they convert to (a duration in milliseconds, a time in an event
/// file) are refused with their location, never a crash: exit 2 for a file, 64 for an option.
@Suite struct OutOfRangeNumbersTests {
    @Test func hugeDurationsInAPipelineAreLocatedErrors() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            operations:
              a:
                op: exec
                command: [sh, -c, 'true']
                timeout: 1e19
                grace_period: 99999999999999999999h
            """, to: "huge.yaml", in: directory)
        let result = try await TaskGraphProcess.run(["validate", "huge.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                huge.yaml:6:14: error: operation 'a': 'timeout' must be a duration such as 30s, 500ms or 2m, not '1e19'
                huge.yaml:7:19: error: operation 'a': 'grace_period' must be a duration such as 30s, 500ms or 2m, not\
                 '99999999999999999999h'
                2 errors in 1 of 1 file: invalid

                """)
    }

    @Test func aHugeMaxAgeIsAUsageError() async throws {
        let result = try await TaskGraphProcess.run(
            ["cache", "gc", "--max-age", "99999999999999999999d"], in: try fixtureDirectory())
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: --max-age: '99999999999999999999d' is not a duration such as 30d, 12h or 90m\n"))
    }

    @Test func anEventFileWithAnImpossibleTimeIsRefusedWithItsLine() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        try write(
            """
            {"event":"run_started","time":0,"timestamp":"2026-11-26T10:00:00.000Z","schema_version":1,\
            "pipeline":"hello","operations":0}
            {"event":"timed_out","time":1,"id":"greet[ann]","reason":"timed out","timeout":1e300}
            {"event":"run_finished","time":2,"timestamp":"2026-11-26T10:00:02.000Z","wall_time":1e300,"cancelled":false}

            """, to: "run.jsonl", in: directory)
        let report = try await TaskGraphProcess.run(["report", "run.jsonl", "-o", "run.html"], in: directory)
        #expect(report.status == 2)
        #expect(
            report.stderr
                == "taskgraph: run.jsonl:3: 'wall_time' must be a number of seconds from 0 to 1e9, not 1e+300\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("run.html").path))
        let graph = try await TaskGraphProcess.run(["graph", "hello.yaml", "--events", "run.jsonl"], in: directory)
        #expect(graph.status == 64)
        #expect(
            graph.stderr.hasPrefix(
                "Error: --events: run.jsonl:2: 'timeout' must be a number of seconds from 0 to 1e9, not 1e+300\n"))
    }
}
