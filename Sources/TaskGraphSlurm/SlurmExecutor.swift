import Foundation
import TaskGraphCore

/// Runs operations as Slurm jobs (`RemoteExecutor`): each attempt is a job file in the run's
/// directory, submitted with `sbatch --parsable` to run `taskgraph worker` on a node, and ends
/// when the worker's completion record says so. One `squeue` query per interval watches every
/// job of the run (selected by the run's job name); the interval grows while nothing changes.
/// Cancelled attempts' jobs are cancelled with one `scancel` per interval; a cancelled run's
/// with one `cancelAll`, and `finish(cancelled:)` waits until they have left the queue.
///
/// Start `run(resources:)` beside the engine's run (same task group) and cancel it after; then
/// call `finish(cancelled:resources:)`. Job files, records and logs are in docs/cluster.md.
public final class SlurmExecutor: RemoteExecutor {
    /// The run's configuration.
    public let configuration: SlurmConfiguration
    let jobs = SlurmJobTable()
    let submissions = SubmissionQueue()
    private let nextSubmission = Locked(ContinuousClock.now)
    /// Whether `cancelAll` ran.
    private let cancelledAll = Locked(false)

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

    /// Those it accepts with `fuse: true`, or all of them with `--fuse`.
    public func fuses(_ settings: NodeSettings) -> Bool {
        accepts(settings) && (settings.cluster.fuse || configuration.fusesEveryChain)
    }

    public func run(_ job: RemoteJob, settings: NodeSettings, context: TaskContext) async throws -> RemoteCompletion {
        let name = jobs.nextName()
        let reference: String
        if let exchange = configuration.exchange {
            reference = try await exchange.publish(job, as: "\(configuration.runName)-\(name)")
        } else {
            reference = "\(configuration.jobDirectory)/\(name).job"
            let data = try job.encoded()
            try await context.resources.blockingIO.run { try FileIO.writeAtomically(data, to: reference) }
        }
        let options = SbatchCommand.options(for: settings.cluster)
        let (id, log) = try await withCheckedThrowingContinuation { continuation in
            submissions.add(
                SubmissionQueue.Request(name: name, reference: reference, options: options, continuation: continuation))
        }
        let submitted = (instant: ContinuousClock.now, date: Date().timeIntervalSince1970)
        context.report(
            RemoteJobStatus(job: id, state: "SUBMITTED", waiting: true), message: "slurm job \(id) submitted")
        let report: @Sendable (RemoteJobStatus, String) -> Void = { context.report($0, message: $1) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                jobs.register(
                    id,
                    SlurmJobTable.Waiting(
                        name: name, reference: reference, log: log, continuation: continuation, report: report,
                        submitted: submitted.instant,
                        submittedAt: submitted.date))
            }
        } onCancel: {
            jobs.cancel(id)
        }
    }

    /// Submits the run's jobs and watches the queue until cancelled: one query per interval
    /// while jobs are waited for, ending each job's wait when it finishes; cancels cancelled
    /// attempts' jobs.
    public func run(resources: RunResources) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.submitJobs(resources: resources) }
            group.addTask { await self.watchQueue(resources: resources) }
        }
    }

    /// The queue watch of `run(resources:)`.
    private func watchQueue(resources: RunResources) async {
        var interval = PollInterval(
            minimum: configuration.minimumPollInterval, maximum: configuration.maximumPollInterval)
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

    /// One `scancel` of every job of the run (selected by its job name), once: call it as soon
    /// as the run is cancelled, beside the engine's unwinding, so the scheduler starts on it at
    /// once. Not cancellable: run it in a task of its own.
    public func cancelAll(resources: RunResources) async {
        guard
            cancelledAll.withLock({ done in
                defer { done = true }
                return !done
            })
        else { return }
        await cancelJobs(["--name=\(configuration.runName)"], resources: resources)
    }

    /// After the run: when it was cancelled or jobs were left (a submission interrupted),
    /// `cancelAll` unless done, then waits (at most `settleLimit`) until `squeue` lists none of
    /// the run's jobs as queued, running or completing. A job still queued or running then was
    /// submitted after that `scancel`: one more `scancel` takes those. Nothing when every job
    /// ended.
    public func finish(cancelled: Bool, resources: RunResources, settleLimit: Duration = .milliseconds(1500)) async {
        let (waiting, toCancel) = jobs.poll()
        guard cancelled || !waiting.isEmpty || !toCancel.isEmpty else { return }
        await cancelAll(resources: resources)
        let deadline = ContinuousClock.now + settleLimit
        var late: Set<String> = []
        while ContinuousClock.now < deadline {
            let active = try? await resources.childProcesses.run(
                arguments: ["squeue", "--noheader", "--array", "--name=\(configuration.runName)", "--format=%i|%T|%r"],
                environment: configuration.environment, workingDirectory: nil)
            guard let active, active.status == .exited(0), !active.standardOutput.isEmpty else { return }
            let snapshot = QueueSnapshot(parsing: String(decoding: active.standardOutput, as: UTF8.self))
            let missed = Set(snapshot.entries.filter { $0.value.state != "COMPLETING" }.keys).subtracting(late)
            if !missed.isEmpty {
                late.formUnion(missed)
                await cancelJobs(missed.sorted(), resources: resources)
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// One query; returns whether any job changed state.
    private func poll(resources: RunResources) async -> Bool {
        let (waiting, toCancel) = jobs.poll()
        if !toCancel.isEmpty, !cancelledAll.withLock({ $0 }) { await cancelJobs(toCancel, resources: resources) }
        guard !waiting.isEmpty else { return false }
        guard
            let result = try? await resources.childProcesses.run(
                arguments: QueueSnapshot.arguments(runName: configuration.runName),
                environment: configuration.environment,
                workingDirectory: nil), result.status == .exited(0)
        else { return false }
        jobs.queried()
        let snapshot = QueueSnapshot(parsing: String(decoding: result.standardOutput, as: UTF8.self))
        var changed = false
        for (id, _) in waiting {
            let entry = snapshot.entries[id]
            guard let (stateChanged, job) = jobs.observe(id, state: entry?.state) else { continue }
            if let entry, QueueSnapshot.activeStates.contains(entry.state) {
                if stateChanged {
                    changed = true
                    Self.report(
                        RemoteJobStatus(
                            job: id, state: entry.state, reason: entry.reason,
                            waiting: QueueSnapshot.waitingStates.contains(entry.state)), to: job)
                }
                continue
            }
            // Ended, or not listed twice in a row (a job can be missing from a query right
            // after its submission).
            if entry == nil, job.missed < 2 { continue }
            changed = true
            let (result, status) = await outcome(of: id, job: job, entry: entry, resources: resources)
            Self.report(status, to: job)
            jobs.finish(id, with: result)
        }
        return changed
    }

    /// Reports `status` through `job`, with the log line `slurm job 65 RUNNING`, with the reason
    /// when Slurm gives one, e.g. `slurm job 65 PENDING (Resources)`.
    private static func report(_ status: RemoteJobStatus, to job: SlurmJobTable.Waiting) {
        var status = status
        if status.reason == "None" || status.reason == "" { status.reason = nil }
        job.report(status, "slurm job \(status.job) \(status.state)" + (status.reason.map { " (\($0))" } ?? ""))
    }

    /// `scancel` with `arguments` (job ids, or `--name=…`).
    private func cancelJobs(_ arguments: [String], resources: RunResources) async {
        _ = try? await resources.childProcesses.run(
            arguments: ["scancel"] + arguments, environment: configuration.environment, workingDirectory: nil)
    }

    /// Sleeps until the rate limit allows the next submission.
    func waitForSubmissionSlot() async throws {
        let interval = configuration.submissionInterval
        let slot = nextSubmission.withLock { next in
            let slot = max(next, .now)
            next = slot + interval
            return slot
        }
        if slot > .now { try await Task.sleep(until: slot) }
    }
}
