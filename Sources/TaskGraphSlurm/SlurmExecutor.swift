import Foundation
import TaskGraphCore

/// Runs operations as Slurm jobs (`RemoteExecutor`): each attempt is a job file in the run's
/// directory, submitted with `sbatch --parsable` to run `taskgraph worker` on a node, and ends
/// when the worker's completion record says so. One `squeue` query per interval watches every
/// job of the run (selected by the run's job name); the interval grows while nothing changes.
/// Cancelled attempts' jobs are cancelled with one `scancel` per interval; `finish(cancelled:)`
/// cancels whatever is left with one more.
///
/// Start `run(resources:)` beside the engine's run (same task group) and cancel it after; then
/// call `finish(cancelled:resources:)`. Job files, records and logs are in docs/cluster.md.
public final class SlurmExecutor: RemoteExecutor {
    /// The run's configuration.
    public let configuration: SlurmConfiguration
    private let jobs = SlurmJobTable()
    private let nextSubmission = Locked(ContinuousClock.now)

    /// An executor for one run.
    public init(configuration: SlurmConfiguration) {
        self.configuration = configuration
    }

    /// What the run asked of Slurm so far.
    public var statistics: SlurmStatistics { jobs.statistics }

    /// Every node except those with `executor: local`.
    public func accepts(_ settings: NodeSettings) -> Bool {
        settings.cluster.executor != "local"
    }

    public func run(_ job: RemoteJob, settings: NodeSettings, context: TaskContext) async throws -> ActionRecord {
        let name = jobs.nextName()
        let jobFile = "\(configuration.jobDirectory)/\(name).job"
        let data = try job.encoded()
        try await context.resources.blockingIO.run { try FileIO.writeAtomically(data, to: jobFile) }
        try await waitForSubmissionSlot()
        let arguments = SbatchCommand.arguments(name: name, settings: settings.cluster, configuration: configuration)
        let result = try await context.resources.childProcesses.run(
            arguments: arguments, environment: configuration.environment, workingDirectory: nil)
        let output = String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == .exited(0) else {
            let message = String(decoding: result.standardErrorTail, as: UTF8.self)
            throw SlurmError.submissionFailed(message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // `--parsable` prints `id` or `id;cluster`.
        let id = String(output.prefix { $0 != ";" })
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else { throw SlurmError.unexpectedSubmission(output) }
        jobs.submitted()
        context.log("slurm job \(id) submitted")
        let log: @Sendable (String) -> Void = { context.log($0) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                jobs.register(id, SlurmJobTable.Waiting(name: name, continuation: continuation, log: log))
            }
        } onCancel: {
            jobs.cancel(id)
        }
    }

    /// Watches the queue until cancelled: one query per interval while jobs are waited for,
    /// ending each job's wait when it finishes; cancels cancelled attempts' jobs.
    public func run(resources: RunResources) async {
        var interval = PollInterval(minimum: configuration.minimumPollInterval, maximum: configuration.maximumPollInterval)
        var waited = Duration.zero
        while !Task.isCancelled {
            if jobs.takeArrival() { interval.reset() }
            if waited < interval.current {
                let slice = min(configuration.minimumPollInterval, interval.current - waited)
                do { try await Task.sleep(for: slice) } catch { return }
                waited += slice
                continue
            }
            waited = .zero
            if await poll(resources: resources) { interval.reset() } else { interval.backOff() }
        }
    }

    /// After the run: one `scancel` of every job of the run still queued or running when the
    /// run was cancelled or a submission was interrupted, then waits (at most `settleLimit`)
    /// until `squeue` lists none of them as queued, running or completing; nothing when every
    /// job ended.
    public func finish(cancelled: Bool, resources: RunResources, settleLimit: Duration = .milliseconds(1500)) async {
        let (waiting, toCancel) = jobs.poll()
        guard cancelled || !waiting.isEmpty || !toCancel.isEmpty else { return }
        await cancelJobs(["--name=\(configuration.runName)"], resources: resources)
        let deadline = ContinuousClock.now + settleLimit
        while ContinuousClock.now < deadline {
            let active = try? await resources.childProcesses.run(
                arguments: ["squeue", "--noheader", "--name=\(configuration.runName)", "--format=%i"],
                environment: configuration.environment, workingDirectory: nil)
            guard let active, active.status == .exited(0), !active.standardOutput.isEmpty else { return }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// One query; returns whether any job changed state.
    private func poll(resources: RunResources) async -> Bool {
        let (waiting, toCancel) = jobs.poll()
        if !toCancel.isEmpty { await cancelJobs(toCancel, resources: resources) }
        guard !waiting.isEmpty else { return false }
        guard let result = try? await resources.childProcesses.run(
            arguments: QueueSnapshot.arguments(runName: configuration.runName), environment: configuration.environment,
            workingDirectory: nil), result.status == .exited(0)
        else { return false }
        jobs.queried()
        let snapshot = QueueSnapshot(parsing: String(decoding: result.standardOutput, as: UTF8.self))
        var changed = false
        for (id, _) in waiting {
            let entry = snapshot.entries[id]
            guard let (stateChanged, job) = jobs.observe(id, state: entry?.state) else { continue }
            if stateChanged, let entry {
                changed = true
                job.log("slurm job \(id) \(entry.state)" + (entry.reason == "None" ? "" : " (\(entry.reason))"))
            }
            if let entry, QueueSnapshot.activeStates.contains(entry.state) { continue }
            // Ended, or not listed twice in a row (a job can be missing from a query right
            // after its submission).
            if entry == nil, job.missed < 2 { continue }
            changed = true
            jobs.finish(id, with: await outcome(of: id, job: job, entry: entry))
        }
        return changed
    }

    /// How job `id` ended: from its completion record, else from the scheduler's state.
    private func outcome(of id: String, job: SlurmJobTable.Waiting, entry: QueueSnapshot.Entry?) async
        -> Result<ActionRecord, any Error>
    {
        let stem = "\(configuration.jobDirectory)/\(job.name)"
        let read = try? await BlockingIO.run { () -> (Data?, String) in
            let completion = FileManager.default.fileExists(atPath: "\(stem).done") ? try FileIO.read("\(stem).done") : nil
            return (completion, Self.tail(ofLog: "\(stem).log"))
        }
        let (completion, logTail) = read ?? (nil, "")
        guard let completion else {
            guard let entry else { return .failure(SlurmError.jobVanished(job: id, logTail: logTail)) }
            return .failure(SlurmError.jobEnded(job: id, state: entry.state, reason: entry.reason, logTail: logTail))
        }
        do {
            switch try RemoteCompletion(encoded: completion) {
            case .succeeded(let record): return .success(record)
            case .failed(let message): return .failure(SlurmError.operationFailed(job: id, message: message))
            }
        } catch {
            return .failure(SlurmError.unreadableCompletion(job: id, reason: String(describing: error)))
        }
    }

    /// `scancel` with `arguments` (job ids, or `--name=…`).
    private func cancelJobs(_ arguments: [String], resources: RunResources) async {
        _ = try? await resources.childProcesses.run(
            arguments: ["scancel"] + arguments, environment: configuration.environment, workingDirectory: nil)
    }

    /// Sleeps until the rate limit allows the next submission.
    private func waitForSubmissionSlot() async throws {
        let interval = configuration.submissionInterval
        let slot = nextSubmission.withLock { next in
            let slot = max(next, .now)
            next = slot + interval
            return slot
        }
        if slot > .now { try await Task.sleep(until: slot) }
    }

    /// The last lines of a job's log, joined with ` | ` (blocking).
    static func tail(ofLog path: String, lines: Int = 4) -> String {
        guard let data = try? FileIO.read(path) else { return "" }
        let text = String(decoding: data.suffix(4096), as: UTF8.self)
        return text.split(separator: "\n").suffix(lines).joined(separator: " | ")
    }
}
