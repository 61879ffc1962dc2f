import Foundation
import TaskGraphReporting
import Testing

@testable import TaskGraphCore

/// Operations run as remote jobs (a cluster): their job's id and state in the events, the live
/// display, the trace and the summary.
@Suite struct RemoteJobReportTests {
    /// A graph of two nodes, `tilt` and `sepia`.
    private func twoNodes() throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        let action = ClosureAction { _ in EmptyResult() }
        try graph.add("tilt", action: action)
        try graph.add("sepia", action: action)
        return graph
    }

    /// The event that node 0's job reached `status`, `elapsed` into the run.
    private func jobEvent(_ status: RemoteJobStatus, at elapsed: Duration, message: String = "") -> EngineEvent {
        EngineEvent(elapsed: elapsed, kind: .nodeProgress(node: 0, ProgressUpdate(message: message, remote: status)))
    }

    /// Node 0's job: submitted at 1 s, running, completed after 2 s in the queue and 0.5 s on the node.
    private var jobEvents: [EngineEvent] {
        [
            EngineEvent(elapsed: .seconds(1), kind: .nodeStarted(node: 0, attempt: 1, lane: 0)),
            jobEvent(
                RemoteJobStatus(job: "65", state: "SUBMITTED", waiting: true), at: .seconds(1),
                message: "slurm job 65 submitted"),
            jobEvent(RemoteJobStatus(job: "65", state: "PENDING", reason: "Resources", waiting: true), at: .seconds(2)),
            jobEvent(RemoteJobStatus(job: "65", state: "RUNNING"), at: .seconds(3)),
            jobEvent(
                RemoteJobStatus(job: "65", state: "COMPLETED", queueWait: .seconds(2), runTime: .milliseconds(500)),
                at: .seconds(4)),
            EngineEvent(elapsed: .seconds(4), kind: .nodeFinished(node: 0, outcome: .succeeded)),
        ]
    }

    @Test func logEventsCarryTheJobsIdStateAndTimes() throws {
        let (output, path) = try scratchOutput(named: "events.jsonl")
        let writer = JSONEventWriter(graph: try twoNodes(), pipeline: "remote", output: output)
        for event in jobEvents { writer.receive(event) }
        output.flush()
        let jobs = try contents(of: path).split(separator: "\n").filter { $0.contains("\"event\":\"log\"") }
            .map { String($0[$0.range(of: "\"message\"")!.lowerBound...]) }
        #expect(
            jobs == [
                "\"message\":\"slurm job 65 submitted\",\"job\":{\"id\":\"65\",\"state\":\"SUBMITTED\"}}",
                "\"message\":\"\",\"job\":{\"id\":\"65\",\"state\":\"PENDING\",\"reason\":\"Resources\"}}",
                "\"message\":\"\",\"job\":{\"id\":\"65\",\"state\":\"RUNNING\"}}",
                "\"message\":\"\",\"job\":{\"id\":\"65\",\"state\":\"COMPLETED\",\"queue_wait\":2.000000,"
                    + "\"run_time\":0.500000}}",
            ])
    }

    @Test func theSummaryShowsQueueWaitAndRunTimeApart() throws {
        let graph = try twoNodes()
        let log = RemoteJobLog()
        for event in jobEvents { log.receive(event) }
        let records = [
            RunReport.NodeRecord(
                id: "tilt", type: "action", outcome: .succeeded, attempts: 1, startTime: .seconds(1),
                endTime: .seconds(4),
                summary: "1 B"),
            RunReport.NodeRecord(
                id: "sepia", type: "action", outcome: .skipped(because: "tilt"), attempts: 0, summary: ""),
        ]
        var summary = RunSummary(
            report: RunReport(nodes: records, wallTime: .seconds(4), wasCancelled: false, finalResults: [:]),
            graph: graph)
        summary.remoteJobs = log.lastStatuses
        #expect(
            summary.render().split(separator: "\n").map(String.init) == [
                "operation  state        time      queued    ran       detail",
                "tilt       ok           3.0s      2.0s      500ms     1 B",
                "sepia      skipped      -         -         -         'tilt' failed",
                "1 ok, 1 skipped in 4.0s",
                "1 remote job: queue wait 2.0s in all (longest 2.0s), run time 500ms in all",
            ])
    }

    @Test func theTraceHasARowPerJobWithItsQueueWaitThenItsRun() throws {
        let recorder = TraceRecorder(graph: try twoNodes())
        for event in jobEvents { recorder.receive(event) }
        let lines = recorder.json().split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":100000,\"args\":{\"name\":\"job 65\"}},"))
        #expect(
            lines.contains(
                "{\"name\":\"queued\",\"cat\":\"queue\",\"ph\":\"X\",\"ts\":1000000,\"dur\":2000000,\"pid\":1,"
                    + "\"tid\":100000,"
                    + "\"args\":{\"job\":\"65\",\"state\":\"COMPLETED\"}},"))
        #expect(
            lines.contains(
                "{\"name\":\"tilt\",\"cat\":\"action\",\"ph\":\"X\",\"ts\":3000000,\"dur\":500000,\"pid\":1,"
                    + "\"tid\":100000,"
                    + "\"args\":{\"job\":\"65\",\"state\":\"COMPLETED\"}}"))
        #expect(!lines.contains { $0.contains("\"tid\":1,") }, "no lane row: the job's row replaces it")
    }

    @Test func theLiveDisplayShowsPendingJobsApartWithTheirIds() async throws {
        let (output, path) = try scratchOutput(named: "terminal")
        let display = LiveStatusDisplay(graph: try twoNodes(), output: output, useColor: false)
        display.receive(EngineEvent(elapsed: .zero, kind: .runStarted(nodeCount: 2)))
        for event in jobEvents.prefix(3) { display.receive(event) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await display.run() }
            while try !contents(of: path).contains("job 65 PENDING") { try await Task.sleep(for: .milliseconds(10)) }
            group.cancelAll()
        }
        let screen = try contents(of: path)
        #expect(screen.contains("0/2  done 0  running 0  pending 1  queued 1  "), "\(screen)")
        #expect(screen.contains("  tilt  action  "))
    }
}
