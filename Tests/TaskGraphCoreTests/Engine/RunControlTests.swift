import Foundation
import Testing
@testable import TaskGraphCore

/// `RunControl` pauses a run: nothing starts until it resumes.
@Suite struct RunControlTests {
    @Test func aPausedRunStartsNothingUntilResumed() async throws {
        var graph = ExecutionGraph()
        let first = try graph.add("first", action: ClosureAction { _ in EmptyArtifact() })
        try graph.add("second", action: ClosureAction { _ in EmptyArtifact() }, needs: [first])
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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pidFile = directory.appendingPathComponent("pid").path
        let goFile = directory.appendingPathComponent("go").path
        var graph = ExecutionGraph()
        try graph.add("sleeper", action: ClosureAction { context in
            _ = try await context.resources.childProcesses.run(
                arguments: ["sh", "-c", "echo $$ > \(pidFile); until [ -e \(goFile) ]; do sleep 0.05; done"], environment: ["PATH": "/usr/bin:/bin"],
                workingDirectory: nil)
            return EmptyArtifact()
        })
        let run = Task { await Engine().run(graph, resources: resources, control: control) }
        var pid: Int32?
        for _ in 0..<800 {
            pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if pid != nil { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        let child = try #require(pid)
        control.pause()
        // Read first: the macro shows no value of an expression that awaits.
        let paused = try await state(of: child) { $0 == "T" }
        #expect(paused == "T", "child \(child) was in state \(paused ?? "gone") after the pause")
        control.resume()
        let resumed = try await state(of: child) { $0 != "T" }
        #expect(resumed != "T", "child \(child) was in state \(resumed ?? "gone") after resuming")
        // The child waits for this file, so however slow the machine it is still running when paused.
        #expect(FileManager.default.createFile(atPath: goFile, contents: nil))
        #expect(await run.value.succeeded)
        await resources.shutDown()
    }

    /// The state letter of `pid` once `accepts` it (the kernel applies a stop or continue soon
    /// after the signal), or the last one seen after a guard of ten seconds.
    private func state(of pid: Int32, _ accepts: (String) -> Bool) async throws -> String? {
        var state: String?
        for _ in 0..<400 {
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            state = stat?.split(separator: ")").last?.split(separator: " ").first.map(String.init)
            if let state, accepts(state) { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        return state
    }
}
