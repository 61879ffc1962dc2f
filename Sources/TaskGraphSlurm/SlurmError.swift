/// What can go wrong running an operation as a Slurm job.
public enum SlurmError: Error, Hashable, Sendable {
    /// `sbatch` refused the job or could not be run: its message.
    case submissionFailed(String)
    /// `sbatch` answered something other than a job id.
    case unexpectedSubmission(String)
    /// The job ended in `state` (Slurm's name, e.g. `TIMEOUT`) with `reason`, without a
    /// completion record; `logTail` is the end of its log.
    case jobEnded(job: String, state: String, reason: String, logTail: String)
    /// The job left the queue without a completion record (aged out of `squeue`, or purged).
    case jobVanished(job: String, logTail: String)
    /// The operation failed in job `job` with `message`.
    case operationFailed(job: String, message: String)
    /// The completion record of job `job` could not be read.
    case unreadableCompletion(job: String, reason: String)
    /// The files job `job` wrote on its node could not be brought to the driver (`JobExchange`).
    case outputsUnavailable(job: String, reason: String)
}

extension SlurmError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .submissionFailed(let message): "sbatch failed: \(message)"
        case .unexpectedSubmission(let output): "sbatch answered '\(output)', not a job id"
        case .jobEnded(let job, let state, let reason, let logTail):
            "slurm job \(job) ended \(state)" + (reason.isEmpty || reason == "None" ? "" : " (\(reason))")
                + (logTail.isEmpty ? "" : "; log: \(logTail)")
        case .jobVanished(let job, let logTail):
            "slurm job \(job) left the queue without a completion record" + (logTail.isEmpty ? "" : "; log: \(logTail)")
        case .operationFailed(let job, let message): "\(message) (slurm job \(job))"
        case .unreadableCompletion(let job, let reason): "slurm job \(job): unreadable completion record: \(reason)"
        case .outputsUnavailable(let job, let reason):
            "slurm job \(job): the files it wrote could not be brought here: \(reason)"
        }
    }
}
