import Foundation
import Synchronization
import TaskGraphCore

/// Records where time went and writes it as a Chrome trace-event file (opens in Perfetto or
/// chrome://tracing): one row per worker lane, one complete event per operation that ran,
/// from its first start to its end, with its state and attempts. An operation run as remote
/// jobs (a cluster) is drawn instead on one row per job: its queue wait, then its run.
public final class TraceRecorder: EventSink, Sendable {
    private struct Span {
        var start: Duration
        var lane: Int
        var attempts: Int
        /// The remote jobs of its attempts (on a cluster), in order.
        var jobs: [Job] = []
    }

    /// A remote job: its own row, with its queue wait then its run.
    private struct Job {
        var id: String
        var submitted: Duration
        var status: RemoteJobStatus
    }

    private struct State {
        var open: [Int: Span] = [:]
        var events: [String] = []
        var lanes: Set<Int> = []
        /// Whether any node reused a stored result (they get a row of their own).
        var hasHits = false
        /// The rows of remote jobs: their names, by row (`tid`).
        var jobRows: [(tid: Int, name: String)] = []
    }

    private let ids: [String]
    private let types: [String]
    private let added: AddedNodes
    private let state = Locked(State())

    /// A recorder for a run of `graph`.
    public init(graph: ExecutionGraph) {
        ids = graph.nodes.map { $0.id }
        added = AddedNodes(after: graph)
        types = graph.nodes.map { $0.type }
    }

    private func id(_ node: Int) -> String {
        node < added.first ? ids[node] : added[node].id
    }

    private func type(_ node: Int) -> String {
        node < added.first ? types[node] : added[node].type
    }

    public func receive(_ event: EngineEvent) {
        added.receive(event.kind)
        state.withLock { state in
            switch event.kind {
            case .nodeStarted(let node, let attempt, let lane):
                if state.open[node] == nil {
                    state.open[node] = Span(start: event.elapsed, lane: lane, attempts: attempt)
                } else {
                    state.open[node]?.attempts = attempt
                }
            case .nodeProgress(let node, let update):
                guard let remote = update.remote else { return }
                if let last = state.open[node]?.jobs.indices.last, state.open[node]?.jobs[last].id == remote.job {
                    state.open[node]?.jobs[last].status = remote
                } else {
                    state.open[node]?.jobs.append(Job(id: remote.job, submitted: event.elapsed, status: remote))
                }
            case .nodeFinished(let node, .cached):
                // A reused result: an instant on its own row, since nothing ran.
                state.hasHits = true
                state.events.append(
                    "{\"name\":\(JSONText.quoted(id(node))),\"cat\":\(JSONText.quoted(type(node))),"
                        + "\"ph\":\"i\",\"s\":\"t\",\"ts\":\(JSONText.microseconds(event.elapsed)),\"pid\":1,\"tid\":0,"
                        + "\"args\":{\"state\":\"cached\"}}")
            case .nodeFinished(let node, let outcome):
                guard let span = state.open.removeValue(forKey: node) else { return }
                guard span.jobs.isEmpty else {
                    for job in span.jobs { append(job, of: node, endingAt: event.elapsed, to: &state) }
                    return
                }
                state.lanes.insert(span.lane)
                let start = JSONText.microseconds(span.start)
                let duration = max(JSONText.microseconds(event.elapsed) - start, 1)
                state.events.append(
                    "{\"name\":\(JSONText.quoted(id(node))),\"cat\":\(JSONText.quoted(type(node))),"
                        + "\"ph\":\"X\",\"ts\":\(start),\"dur\":\(duration),\"pid\":1,\"tid\":\(span.lane + 1),"
                        + "\"args\":{\"state\":\(JSONText.quoted(outcome.kind.eventName)),"
                        + "\"attempts\":\(span.attempts)}}")
            default:
                break
            }
        }
    }

    /// Job `job` of `node` on a row of its own, `job 65`: `queued` from its submission for its
    /// queue wait, then the operation for its run time (until `end` when not known), with the
    /// job's final state.
    private func append(_ job: Job, of node: Int, endingAt end: Duration, to state: inout State) {
        let tid = 100_000 + state.jobRows.count
        state.jobRows.append((tid, "job \(job.id)"))
        let submitted = JSONText.microseconds(job.submitted)
        let started = job.status.queueWait.map { submitted + JSONText.microseconds($0) } ?? submitted
        let ended = job.status.runTime.map { started + JSONText.microseconds($0) } ?? JSONText.microseconds(end)
        let common =
            ",\"pid\":1,\"tid\":\(tid),\"args\":{\"job\":\(JSONText.quoted(job.id)),"
            + "\"state\":\(JSONText.quoted(job.status.state))}}"
        state.events.append(
            "{\"name\":\"queued\",\"cat\":\"queue\",\"ph\":\"X\",\"ts\":\(submitted),"
                + "\"dur\":\(max(started - submitted, 1))" + common)
        state.events.append(
            "{\"name\":\(JSONText.quoted(id(node))),\"cat\":\(JSONText.quoted(type(node))),\"ph\":\"X\","
                + "\"ts\":\(started),\"dur\":\(max(ended - started, 1))" + common)
    }

    /// The trace as JSON.
    public func json() -> String {
        state.withLock { state in
            let names = state.lanes.sorted().map { lane in
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(lane + 1),\"args\":{\"name\":\"lane "
                    + "\(lane)\"}}"
            }
            let hits =
                state.hasHits
                ? ["{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"cached\"}}"] : []
            let jobs = state.jobRows.map { row in
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(row.tid),"
                    + "\"args\":{\"name\":\(JSONText.quoted(row.name))}}"
            }
            let process = "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"taskgraph\"}}"
            return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n"
                + ([process] + hits + names + jobs + state.events).joined(separator: ",\n") + "\n]}\n"
        }
    }

    /// Writes the trace to `path`, as `RequestedOutputFile` writes (atomically for a regular
    /// file). Blocking: call through `BlockingIO.run`.
    /// - Throws: `OperationError.writeFailed` if the file cannot be written.
    public func write(to path: String) throws {
        try RequestedOutputFile.write(Data(json().utf8), to: path)
    }
}
