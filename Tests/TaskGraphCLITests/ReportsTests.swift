import Foundation
import Testing

@Suite struct ReportsTests {
    /// Validates every line of `file` against docs/events.schema.json with Python's jsonschema.
    private func validateEvents(_ file: URL) async throws -> String {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/events.schema.json").standardized.path
        let script = """
            import json, sys, jsonschema
            validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            lines = [json.loads(line) for line in open(sys.argv[2])]
            for line in lines: validator.validate(line)
            print(len(lines), "valid")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = await Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func eventsFileFollowsItsSchemaAndTellsEveryOutcome() async throws {
        let directory = try fixtureDirectory(["failing.yaml"])
        let result = try await TaskGraphProcess.run(
            ["run", "failing.yaml", "--output", "out", "--events", "events.jsonl"], in: directory)
        #expect(result.status == 1)
        let file = directory.appendingPathComponent("events.jsonl")
        // 9 events of the run and a `cache` event for each of the two operations that started.
        #expect(try await validateEvents(file) == "11 valid\n")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let endings = events.filter { ["succeeded", "failed", "skipped"].contains($0["event"] as? String) }
            .map { "\($0["event"]!) \($0["id"]!)" }.sorted()
        #expect(endings == ["failed broken", "skipped after-broken", "succeeded fine"])
        let failed = try #require(events.first { $0["event"] as? String == "failed" })
        #expect(failed["reason"] as? String == "'sh' exited with status 3: first line | disk on fire")
        #expect(events.first?["event"] as? String == "run_started")
        #expect(events.last?["event"] as? String == "run_finished")
    }

    @Test func timedOutEventGivesItsLimitAndGraphReadsItBack() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            operations:
              stuck: {op: exec, command: [sleep, "30"], timeout: 200ms}
              after: {op: group, needs: stuck}
            """, to: "stuck.yaml", in: directory)
        let run = try await TaskGraphProcess.run(["run", "stuck.yaml", "--events", "events.jsonl"], in: directory)
        #expect(run.status == 1)
        let file = directory.appendingPathComponent("events.jsonl")
        #expect(try await validateEvents(file) == "7 valid\n")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let timedOut = try #require(events.first { $0["event"] as? String == "timed_out" })
        #expect(timedOut["reason"] as? String == "timed out after 200ms")
        #expect(timedOut["timeout"] as? Double == 0.2)
        let graph = try await TaskGraphProcess.run(
            ["graph", "stuck.yaml", "--format", "mermaid", "--events", "events.jsonl"], in: directory)
        #expect(graph.stdout.hasSuffix("  style n0 fill:#f4a6a6\n  style n1 fill:#dee2e6\n"))
    }

    @Test func execEventsCarryTheChildsResourceFigures() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            operations:
              hungry: {op: exec, command: [python3, -c, "b = b'x' * (300 << 20)"]}
            """, to: "hungry.yaml", in: directory)
        let run = try await TaskGraphProcess.run(["run", "hungry.yaml", "--events", "events.jsonl"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let file = directory.appendingPathComponent("events.jsonl")
        #expect(try await validateEvents(file) == "6 valid\n")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let finished = try #require(events.first { $0["event"] as? String == "succeeded" })
        // Python holds 300 MiB of bytes at its peak: wait4's ru_maxrss sees them.
        #expect(try #require(finished["max_rss"] as? Int) > 300 << 20)
        #expect(try #require(finished["cpu_user"] as? Double) + (finished["cpu_system"] as? Double ?? 0) > 0)
        #expect(finished["bytes_read"] is Int && finished["bytes_written"] is Int)
        #expect(finished["needs"] as? [String] == [])
    }

    @Test func traceHasOneCompleteEventPerOperationThatRan() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let result = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--trace", "trace.json"], in: directory)
        #expect(result.status == 0)
        let data = try Data(contentsOf: directory.appendingPathComponent("trace.json"))
        let trace = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(trace["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(
            complete.compactMap { $0["name"] as? String }.sorted() == [
                "all", "greet[ann]", "greet[bob]", "keep[ann]", "keep[bob]",
            ])
        #expect(
            complete.allSatisfy {
                ($0["dur"] as? Int ?? 0) >= 1 && ($0["args"] as? [String: Any])?["state"] as? String == "succeeded"
            })
    }

    @Test func graphColoursARecordedRun() async throws {
        let directory = try fixtureDirectory(["failing.yaml"])
        _ = try await TaskGraphProcess.run(
            ["run", "failing.yaml", "--events", "events.jsonl", "--output", "out"], in: directory)
        let result = try await TaskGraphProcess.run(
            ["graph", "failing.yaml", "--format", "mermaid", "--events", "events.jsonl"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("  style n0 fill:#b7e4c7\n  style n1 fill:#f4a6a6\n  style n2 fill:#dee2e6\n"))
    }

    @Test func schemaDescribesEveryOperationType() async throws {
        let result = try await TaskGraphProcess.run(["schema"], in: try fixtureDirectory())
        #expect(result.status == 0)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let operation = try #require(definitions["operation"] as? [String: Any])
        let properties = try #require(operation["properties"] as? [String: Any])
        let op = try #require(properties["op"] as? [String: Any])
        #expect((op["enum"] as? [String])?.contains("exec") == true)
        #expect((schema["required"] as? [String]) == ["version"])
        #expect(
            (schema["anyOf"] as? [[String: [String]]]) == [["required": ["operations"]], ["required": ["include"]]])
    }
}
