import Foundation
import TaskGraphCore
import TaskGraphReporting
import TaskGraphSlurm

/// A `run --executor slurm`: the executor, its job directory in the shared store (or the remote
/// cache its jobs go through), and what is done around the engine's run (watching the queue,
/// cancelling what is left, cleaning up).
struct ClusterSession {
    let executor: SlurmExecutor

    /// A session for a run whose store is at `storeRoot` (absolute). The run's job directory is
    /// `<store>/jobs/<run name>`, created now, unless jobs go through `exchange` (nodes that share
    /// no file system with this one). `fusingEveryChain` (`--fuse`) runs every linear chain as
    /// one job.
    static func open(storeRoot: String, fusingEveryChain: Bool, exchange: (any JobExchange)? = nil) async throws
        -> ClusterSession
    {
        let runName = "taskgraph-" + UUID().uuidString.lowercased().prefix(13).replacingOccurrences(of: "-", with: "")
        let jobDirectory = "\(storeRoot)/jobs/\(runName)"
        if exchange == nil {
            try await BlockingIO.run {
                // 0700: job files hold the operations' declared environment, which may be secret.
                try FileManager.default.createDirectory(
                    atPath: jobDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        }
        let program =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var configuration = SlurmConfiguration(
            runName: runName, jobDirectory: jobDirectory, storeRoot: storeRoot, workerProgram: program,
            environment: ProcessEnvironment.variables)
        configuration.fusesEveryChain = fusingEveryChain
        configuration.exchange = exchange
        TextOutput.standardError.write(
            "slurm: run \(runName), "
                + (exchange == nil ? "job files in \(jobDirectory)" : "jobs through the remote cache") + "\n")
        TextOutput.standardError.flush()
        return ClusterSession(executor: SlurmExecutor(configuration: configuration))
    }

    /// Runs `work` with the queue watched beside it. Cancelled (Ctrl-C, SIGTERM), it cancels
    /// every job of the run with one `scancel` at once, while the engine unwinds, and returns
    /// once that `scancel` has returned too.
    func running<Result: Sendable>(
        resources: RunResources, _ work: @escaping @Sendable () async -> Result
    ) async -> Result {
        let cancelling = Locked<Task<Void, Never>?>(nil)
        let result = await withTaskCancellationHandler {
            await withTaskGroup(of: Result?.self) { group in
                group.addTask {
                    await executor.run(resources: resources)
                    return nil
                }
                let result = await work()
                group.cancelAll()
                return result
            }
        } onCancel: {
            // A task of its own: the run's tasks are all cancelled, and a cancelled task's child
            // process (scancel) would be ended.
            let executor = executor
            cancelling.withLock { $0 = Task.detached { await executor.cancelAll(resources: resources) } }
        }
        await cancelling.withLock { $0 }?.value
        return result
    }

    /// After the run: cancels the jobs left (one `scancel`, unless `running` did), waits until
    /// they left the queue, removes the job directory unless
    /// something failed (its logs are kept for reading), and prints what was asked of Slurm.
    func finish(cancelled: Bool, failed: Bool, resources: RunResources) async {
        await executor.finish(cancelled: cancelled, resources: resources)
        let configuration = executor.configuration
        if !cancelled, !failed, configuration.exchange == nil {
            _ = try? await BlockingIO.run { try FileManager.default.removeItem(atPath: configuration.jobDirectory) }
        }
        let statistics = executor.statistics
        let jobs = statistics.submitted == 1 ? "1 job" : "\(statistics.submitted) jobs"
        let queries = statistics.queries == 1 ? "1 queue query" : "\(statistics.queries) queue queries"
        let calls = statistics.submissions == 1 ? "1 sbatch call" : "\(statistics.submissions) sbatch calls"
        TextOutput.standardError.write(
            "slurm: \(jobs) submitted, \(queries) (run \(configuration.runName), \(calls))"
                + (failed || cancelled
                    ? "; "
                        + (configuration.exchange == nil
                            ? "job files and logs in \(configuration.jobDirectory)"
                            : "logs in /tmp/\(configuration.runName)-* on the nodes") : "")
                + "\n")
        TextOutput.standardError.flush()
    }
}
