import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphNetwork
import TaskGraphReporting
import TaskGraphStore

/// `taskgraph worker`: runs one job of a cluster run on a node (what `--executor slurm` submits).
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run one job of a cluster run: what `run --executor slurm` submits (docs/cluster.md).",
        discussion: """
            Reads the job file, runs its operation (or a fused chain's operations, in order) with its \
            inputs from the store, writes the result (and the action record) to the store, then the \
            completion record beside the job file (NAME.done for NAME.job). Exits 0 when every \
            operation succeeded, 1 when one failed. Without --store, the store is this machine's \
            cache in front of the remote cache: inputs are downloaded from it, and results, their \
            files and records are uploaded to it before the completion record is written; the job \
            may then be a reference in the remote cache (sha256:…/NAME), whose completion record \
            goes there too.
            """)

    @Option(
        help: ArgumentHelp(
            "The store shared with the driver (default: this machine's cache in front of the remote cache).",
            valueName: "dir"))
    var store: String?

    @OptionGroup var cache: CacheArguments
    @OptionGroup var remoteCache: RemoteCacheArguments

    @Argument(
        help:
            "The job file (NAME.job), or with a remote cache and no --store, the job's reference in it (sha256:…/NAME)."
    )
    var job: String

    func run() async throws {
        let (store, remote) = try await openStore()
        let job: RemoteJob
        do {
            job = try await readJob(from: remote)
        } catch let error as ValidationError {
            throw error
        } catch {
            let what = self.job.hasSuffix(".job") ? "job file" : "job"
            let message = "cannot read the \(what) \(self.job): \(error)"
            // The driver learns why from the completion record, where it can be put.
            try? await deliver(.failed(message), through: remote)
            await remote?.client.shutDown()
            TextOutput.standardError.write("taskgraph: error: \(message)\n")
            throw ExitCode(CLIExitCode.operationFailed)
        }
        let worker = RemoteWorker(registry: .builtIn, store: remote?.store ?? store)
        let resources = RunResources()
        var outcome = await InterruptibleRun.run(resources: resources) { await worker.run(job, resources: resources) }
        await resources.shutDown()
        if let signal = outcome.signal { InterruptibleRun.endProcess(by: signal) }
        if let remote { outcome.report = await Self.upload(outcome.report, of: job, to: remote) }
        try await deliver(outcome.report, through: remote)
        await remote?.client.shutDown()
        if let (step, message) = outcome.report.failure {
            let id = ([job.setup] + (job.chain ?? []))[step].id
            TextOutput.standardError.write("taskgraph: error: \(id): \(message)\n")
            throw ExitCode(CLIExitCode.operationFailed)
        }
    }

    /// The job: from its file, or from the remote cache when `job` is a reference.
    private func readJob(from remote: RemoteStore?) async throws -> RemoteJob {
        let path = job
        if path.hasSuffix(".job") {
            return try JSONDecoder().decode(RemoteJob.self, from: try await BlockingIO.run { try FileIO.read(path) })
        }
        guard let remote else { throw ValidationError("the job file's name must end in .job") }
        return try await RemoteCacheJobExchange.job(path, from: remote.client, signer: remote.signer)
    }

    /// Writes `completion` beside the job file (NAME.done), or for a job from the remote cache,
    /// puts it at its completion key there.
    private func deliver(_ completion: RemoteCompletion, through remote: RemoteStore?) async throws {
        if job.hasSuffix(".job") {
            let data = try completion.encoded()
            let done = String(job.dropLast(".job".count)) + ".done"
            try await BlockingIO.run { try FileIO.writeAtomically(data, to: done) }
        } else if let remote {
            try await RemoteCacheJobExchange.deliver(completion, of: job, to: remote.client, signer: remote.signer)
        }
    }

    /// The shared store `--store` names; without it, this machine's cache (`--cache-dir`) in
    /// front of the remote cache, which then must be configured.
    private func openStore() async throws -> (ContentStore, RemoteStore?) {
        if let store { return (ContentStore(root: store, registry: .builtIn), nil) }
        let local = cache.store(registry: .builtIn)
        guard let (client, settings) = await CacheSession.openRemote(remoteCache) else {
            throw ValidationError("the worker needs --store (a store shared with the driver) or a remote cache")
        }
        let signer = settings.secret.map { HMACSigner(secret: $0) }
        let tiered = TieredStore(
            local: local, remote: client, uploading: true, signer: signer, warn: { CacheSession.warn($0) })
        return (local, RemoteStore(store: tiered, client: client, timeout: settings.timeout, signer: signer))
    }

    /// The remote cache a worker without a shared store reads from and writes to.
    private struct RemoteStore {
        let store: TieredStore
        let client: HTTPCacheClient
        let timeout: Duration
        /// Checks jobs and signs completion records, when the cache is signed.
        let signer: HMACSigner?
    }

    /// `completion` once every blob it names (and a keyed job's record) is on the server, or a
    /// failure saying why not: the driver must never be told of a result it cannot download.
    private static func upload(_ completion: RemoteCompletion, of job: RemoteJob, to remote: RemoteStore) async
        -> RemoteCompletion
    {
        // A keyed job's record went up with its blobs when the worker wrote it.
        if job.key == nil { for record in completion.records { remote.store.uploadBlobs(of: record) } }
        let finished = await remote.store.drain(timeout: remote.timeout)
        guard completion.records.isEmpty || (finished && !remote.store.hasFailed) else {
            return .failed(
                "the results could not be uploaded to the remote cache"
                    + (finished ? "" : " within \(DurationText.format(remote.timeout))"))
        }
        return completion
    }
}
