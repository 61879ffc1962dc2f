import TaskGraphCore

/// The table printed after a run: every operation's state, duration and reason, the totals,
/// the wall time and the critical path.
public struct RunSummary {
    /// The run to summarise.
    public let report: RunReport
    /// Dependencies of each node (for the critical path).
    public let graph: ExecutionGraph
    /// At most this many rows; the rest are counted (failures always shown first).
    public var maximumRows = 40
    /// The last status of the remote job of each node that ran on a cluster, by node index:
    /// with any, the table shows each job's queue wait and run time apart, and their totals.
    public var remoteJobs: [Int: RemoteJobStatus] = [:]

    /// A summary of `report` for a run of `graph`.
    public init(report: RunReport, graph: ExecutionGraph) {
        self.report = report
        self.graph = graph
    }

    /// The summary as text, ending with a newline.
    public func render() -> String {
        let rows = orderedIndices()
        let shown = rows.prefix(maximumRows)
        // Ids, paths and reasons come from outside: no control character reaches the terminal raw.
        let ids = shown.map { DisplayText.escaped(report.nodes[$0].id) }
        let idWidth = min(max(9, ids.map(\.count).max() ?? 0), 48)
        let remote = !remoteJobs.isEmpty
        var text =
            pad("operation", idWidth) + "  " + pad("state", 11) + "  " + pad("time", 8)
            + (remote ? "  " + pad("queued", 8) + "  " + pad("ran", 8) : "") + "  detail\n"
        for (index, id) in zip(shown, ids) {
            let record = report.nodes[index]
            let time = record.duration.map(DurationText.format) ?? "-"
            text += pad(id, idWidth) + "  " + pad(record.outcome.kind.label, 11) + "  " + pad(time, 8)
            if remote {
                let job = remoteJobs[index]
                text +=
                    "  " + pad(job?.queueWait.map(DurationText.format) ?? "-", 8) + "  "
                    + pad(job?.runTime.map(DurationText.format) ?? "-", 8)
            }
            text += "  " + DisplayText.escaped(detail(index)) + "\n"
        }
        if rows.count > shown.count { text += "… and \(rows.count - shown.count) more\n" }
        text += totalsLine() + "\n"
        if let jobs = remoteJobsLine() { text += jobs + "\n" }
        if let path = criticalPathLine() { text += path + "\n" }
        return text
    }

    /// The result's summary or why the node failed or did not run; for a node that ran under a
    /// `when:` rule other than `success`, first why it ran.
    private func detail(_ index: Int) -> String {
        let record = report.nodes[index]
        let detail = record.outcome == .succeeded ? record.summary : record.outcome.reason
        let rule = graph.nodes[index].settings.when
        guard rule != .success, record.attempts > 0,
            let need = graph.nodes[index].dependencies.map({ report.nodes[$0] }).first(where: {
                !$0.outcome.kind.isSuccess
            })
        else { return detail }
        let reason = "when: \(rule.rawValue), after '\(need.id)' \(need.outcome.kind.label)"
        return detail.isEmpty ? reason : reason + "; " + detail
    }

    /// `12 ok, 1 failed, 2 skipped in 3.4s`, or `cancelled after 1.2s: 3 ok, 2 cancelled`.
    public func totalsLine() -> String {
        let counts = report.counts
        let parts = NodeOutcome.Kind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.label)" } }
            .joined(separator: ", ")
        let time = DurationText.format(report.wallTime)
        return report.wasCancelled ? "cancelled after \(time): \(parts)" : "\(parts) in \(time)"
    }

    /// `26 remote jobs: queue wait 12.3s in all (longest 1.2s), run time 40.1s in all`: the
    /// distinct jobs (a fused chain's operations share one) and their waits, the operations' runs.
    private func remoteJobsLine() -> String? {
        guard !remoteJobs.isEmpty else { return nil }
        let jobs = Dictionary(grouping: remoteJobs.values, by: \.job)
        let waits = jobs.values.compactMap { $0.compactMap(\.queueWait).max() }
        let runs = remoteJobs.values.compactMap(\.runTime)
        let count = jobs.count == 1 ? "1 remote job" : "\(jobs.count) remote jobs"
        return count + ": queue wait \(DurationText.format(waits.reduce(.zero, +))) in all (longest "
            + "\(DurationText.format(waits.max() ?? .zero))), run time "
            + "\(DurationText.format(runs.reduce(.zero, +))) in all"
    }

    private func criticalPathLine() -> String? {
        let weights = report.nodes.map { record in
            record.duration.map(\.inSeconds) ?? 0
        }
        guard report.nodes.count > 1,
            let (path, total) = criticalPath(graph.dependencyList, weights: weights), path.count > 1
        else { return nil }
        let ids = path.map { DisplayText.escaped(report.nodes[$0].id) }
        let shown = ids.count > 8 ? ids.prefix(3) + ["…"] + ids.suffix(4) : ids[...]
        let seconds = Duration.milliseconds(Int64(total * 1000))
        return "critical path (\(DurationText.format(seconds))): " + shown.joined(separator: " -> ")
    }

    /// The indices of the nodes: failures first, then in graph order.
    private func orderedIndices() -> [Int] {
        let failures = report.nodes.indices.filter { report.nodes[$0].outcome.isFailure }
        return failures + report.nodes.indices.filter { !report.nodes[$0].outcome.isFailure }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}
