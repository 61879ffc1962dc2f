import Foundation
import Testing

@testable import TaskGraphCore

/// `RunControl` pauses a run: nothing starts until it resumes.
@Suite struct RunControlTests {
    @Test func aPausedRunStartsNothingUntilResumed() async throws {
        var graph = ExecutionGraph()
        let first = try graph.add("first", action: ClosureAction { _ in EmptyResult() })
        try graph.add("second", action: ClosureAction { _ in EmptyResult() }, needs: [first])
        let control = RunControl()
        control.pause()
        let log = EventLog()
        let run = Task { await Engine().run(graph, events: log, control: control) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(log.startOrder == [], "nothing starts while paused")
        #expect(control.isPaused)
        control.resume()
        let report = await run.value
        #expect(report.succeeded)
        #expect(log.startOrder == [0, 1])
        #expect(log.pauses == ["paused", "resumed"])
    }

    @Test func pausingStopsRunningChildrenAndResumingContinuesThem() async throws {
        let resources = RunResources()
        let control = RunControl()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "run-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pidFile = directory.appendingPathComponent("pid").path
        let goFile = directory.appendingPathComponent("go").path
        var graph = ExecutionGraph()
        try graph.add(
            "sleeper",
            action: ClosureAction { context in
                _ = try await context.resources.childProcesses.run(
                    arguments: ["sh", "-c", "echo $$ > \(pidFile); until [ -e \(goFile) ]; do sleep 0.05; done"],
                    environment: ["PATH": "/usr/bin:/bin"],
                    workingDirectory: nil)
                return EmptyResult()
            })
        let run = Task { await Engine().run(graph, resources: resources, control: control) }
        var pid: Int32?
        for _ in 0..<800 {
            pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if pid != nil { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        let child = try #require(pid)
        control.pause()
        // Stopped; a shell caught in `vfork` (dash runs `sleep` so) waits in state D for its
        // stopped child to exec, which it will not do until the group is continued.
        let paused = try await states(ofGroup: child) { $0.contains("T") && $0.allSatisfy { $0 == "T" || $0 == "D" } }
        #expect(
            paused.contains("T") && paused.allSatisfy { $0 == "T" || $0 == "D" },
            "group \(child) after the pause: \(paused)")
        control.resume()
        let resumed = try await states(ofGroup: child) { !$0.contains("T") }
        #expect(!resumed.isEmpty && !resumed.contains("T"), "group \(child) after resuming: \(resumed)")
        // The child waits for this file, so however slow the machine it is still running when paused.
        #expect(FileManager.default.createFile(atPath: goFile, contents: nil))
        #expect(await run.value.succeeded)
        await resources.shutDown()
    }

    /// The state letters of the processes of group `group` once `accepts` them (the kernel
    /// applies a stop or continue soon after the signal), or the last seen after a guard of ten
    /// seconds.
    private func states(ofGroup group: Int32, _ accepts: ([String]) -> Bool) async throws -> [String] {
        var states: [String] = []
        for _ in 0..<400 {
            states = groupStates(group)
            if accepts(states) { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        return states
    }

    /// The state letter of each process in group `group`, from `/proc/<pid>/stat` (after the
    /// command's closing parenthesis: state, parent, group).
    private func groupStates(_ group: Int32) -> [String] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int32($0) != nil } ?? []
        return pids.compactMap { pid -> String? in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 2,
                Int32(fields[2]) == group
            else { return nil }
            return String(fields[0])
        }.sorted()
    }
}
