import ArgumentParser
import TaskGraphCore
import TaskGraphCrypto

/// Where `run` runs operations: in this process, or as jobs of a Slurm cluster.
struct ClusterArguments: ParsableArguments {
    /// The executors `--executor` accepts.
    enum Executor: String, ArgumentChoice {
        case local
        case slurm
    }

    @Option(
        help:
            """
            Where operations run: local (this process) or slurm (jobs of a Slurm cluster; README, \"Running on a Slurm \
            cluster\"); overrides executor: in the file (default local).
            """
    )
    var executor: Executor?

    @Option(
        help: ArgumentHelp(
            "The store on a file system every node mounts (overrides store: in the file; default: the cache "
                + "directory).",
            valueName: "dir"))
    var store: String?

    @Flag(
        help:
            """
            On a cluster: run every linear chain of operations as one job, as if each had fuse: true (docs/cluster.md, \
            \"Fusion\").
            """
    )
    var fuse = false

    /// How jobs travel when no store on a shared file system is named (`sharedStore`) and the
    /// run has a remote cache: through it (docs/cluster.md, "Without a shared file system");
    /// nil: through the job directory in the store.
    /// - Throws: `ValidationError` when that remote cache takes no uploads.
    func exchange(session: CacheSession, sharedStore: String?) throws -> RemoteCacheJobExchange? {
        guard sharedStore == nil, let store = session.storeSession.remote, let (client, settings) = session.remoteClient
        else { return nil }
        guard settings.uploads else {
            throw ValidationError(
                "without --store, cluster jobs go through the remote cache, which needs uploads (not "
                    + "--remote-upload=false)"
            )
        }
        return RemoteCacheJobExchange(
            store: store, client: client, url: settings.url, headers: settings.headers,
            keyVariable: settings.keyVariable, signer: settings.secret.map { HMACSigner(secret: $0) })
    }

    /// Whether `pipeline`'s operations run on the cluster.
    func runsOnCluster(_ pipeline: Pipeline) -> Bool {
        (executor?.rawValue ?? pipeline.executor) == Executor.slurm.rawValue
    }
}
