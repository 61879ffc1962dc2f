/// How a run uses a Slurm cluster.
public struct SlurmConfiguration: Sendable {
    /// The job name of every job of the run (`sbatch --job-name`): unique per run, so one
    /// `squeue --name` query covers all of them and no other.
    public var runName: String
    /// The run's directory on the shared file system: job files, completion records and logs;
    /// also the jobs' working directory. Unused by jobs with an `exchange`.
    public var jobDirectory: String
    /// The store's root directory, on the shared file system.
    public var storeRoot: String
    /// The taskgraph program every node runs (`taskgraph worker`), an absolute path.
    public var workerProgram: String
    /// The environment `sbatch`, `squeue` and `scancel` run with (and jobs inherit): `PATH`,
    /// `SLURM_CONF`, …
    public var environment: [String: String]
    /// The shortest wait between two queue queries: right after a change.
    public var minimumPollInterval: Duration
    /// The longest wait between two queue queries, reached while nothing changes.
    public var maximumPollInterval: Duration
    /// The shortest time between two submissions (the rate limit).
    public var submissionInterval: Duration
    /// Whether every linear chain of operations runs as one job (`--fuse`), not only those
    /// marked `fuse: true`.
    public var fusesEveryChain = false
    /// How jobs and completion records travel when the nodes share no file system with the
    /// driver; nil: through `jobDirectory`.
    public var exchange: (any JobExchange)?

    /// The environment `sbatch` runs with: `environment` and the exchange's variables for the
    /// workers, which jobs inherit.
    var submissionEnvironment: [String: String] {
        environment.merging(exchange?.workerEnvironment ?? [:]) { $1 }
    }

    /// Where the job `name` (e.g. `job-3`, `array-2_%a`) logs: in the job directory, or with an
    /// `exchange`, in the node's `/tmp`, named after the run.
    func log(of name: String) -> String {
        exchange == nil ? "\(jobDirectory)/\(name).log" : "/tmp/\(runName)-\(name).log"
    }

    /// The jobs' working directory: the job directory, or with an `exchange`, `/tmp`.
    var workingDirectory: String { exchange == nil ? jobDirectory : "/tmp" }

    /// A configuration; intervals default to 0.2 s to 5 s between queries and at most 20
    /// submissions a second.
    public init(
        runName: String, jobDirectory: String, storeRoot: String, workerProgram: String,
        environment: [String: String], minimumPollInterval: Duration = .milliseconds(200),
        maximumPollInterval: Duration = .seconds(5), submissionInterval: Duration = .milliseconds(50)
    ) {
        self.runName = runName
        self.jobDirectory = jobDirectory
        self.storeRoot = storeRoot
        self.workerProgram = workerProgram
        self.environment = environment
        self.minimumPollInterval = minimumPollInterval
        self.maximumPollInterval = maximumPollInterval
        self.submissionInterval = submissionInterval
    }
}
