import Foundation
import TaskGraphCore
import TaskGraphNetwork
import TaskGraphStore

/// What `taskgraph run` sets up beside its work: the threads of the blocking work before and
/// after the run, the remote cache's library loaded ahead of the run's first lookup, and the
/// plan kept beside the run.
struct RunSetUp {
    /// The pool of the blocking work outside the run (the store's files, the pipeline's).
    let aroundRun: BlockingThreadPool

    /// Runs `body` with a set-up whose pool is the current one of the blocking work it starts.
    static func around<T: Sendable>(_ body: (RunSetUp) async throws -> T) async throws -> T {
        // Two threads kept for that work, not a thread started for each call: 37 threads in
        // machine B's run of photos.yaml, and one started while libcurl loads waits for the
        // whole load.
        let setUp = RunSetUp(aroundRun: BlockingThreadPool(maximumThreads: 2))
        return try await BlockingThreadPool.$current.withValue(setUp.aroundRun) { try await body(setUp) }
    }

    /// Starts loading libcurl when the run may ask a remote cache: called beside reading the
    /// pipeline, not before the run's first lookup (and not before the up-to-date check either:
    /// a run that ends there would wait for the library at its exit).
    func loadRemoteLibrary(_ remote: RemoteCacheArguments, dryRun: Bool) {
        guard remote.isNamed, !dryRun else { return }
        // The pool's threads first: while the library loads, no thread starts.
        aroundRun.startThreads()
        Task { await HTTPCacheClient.loadLibrary() }
    }

    /// Keeps `pipeline`'s plan under `key` (`UpToDateCheck.keepPlan`) when the run has one to
    /// keep; awaited beside the run, not before it (a plan is flushed to disk).
    static func keepPlan(_ pipeline: Pipeline, key: ContentDigest?, of upToDate: UpToDateRun?) async {
        guard let upToDate, let key else { return }
        await upToDate.check.keepPlan(pipeline, key: key)
    }
}
