import TaskGraphCore

/// How a cluster run's jobs and completion records travel between the driver and its nodes when
/// they share no file system (docs/cluster.md, "Without a shared file system"): the driver
/// publishes each job where a worker can fetch it and names it on the worker's command line;
/// once Slurm says the job ended, the driver reads its completion record back and brings in the
/// files it wrote. Without one, the run's job directory on the shared file system does all this.
public protocol JobExchange: Sendable {
    /// The worker's options that say where jobs come from and where completions go, before the
    /// job's reference (e.g. `--remote-cache URL`): visible to anyone who can read the job's
    /// script, so never a secret.
    var workerOptions: [String] { get }

    /// Variables every job is given through the scheduler's copy of the driver's environment
    /// (`sbatch`'s default `--export=ALL`), never on its command line: what a worker needs that
    /// may be secret (the remote cache's headers).
    var workerEnvironment: [String: String] { get }

    /// Publishes `job`, the attempt `name` (the run's name and the job's, unique), with the
    /// inputs it names, so that a worker on any node can fetch them.
    /// - Returns: the reference the worker is given for it, one shell word (e.g. `sha256:…/name`).
    func publish(_ job: RemoteJob, as name: String) async throws -> String

    /// The completion record the worker wrote for the job published as `reference`; nil when
    /// there is none.
    func completion(of reference: String) async throws -> RemoteCompletion?

    /// Brings to this machine the files `records` name (a `save`'s file, an `exec`'s outputs),
    /// written by a worker on another.
    func receive(_ records: [ActionRecord]) async throws
}
