import Foundation
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphNetwork
import TaskGraphReporting
import TaskGraphStore

/// The store a `run` or `explain` uses for one pipeline: the library's `StoreSession`, opened
/// from the command's options, with the remote cache they name in front of it, and its
/// warnings written to standard error.
struct CacheSession {
    /// What is done with the store around the run.
    let storeSession: StoreSession
    /// The remote cache's client and settings, when the run uses one.
    let remoteClient: (client: HTTPCacheClient, settings: RemoteCacheSettings)?

    /// The local store.
    var store: ContentStore { storeSession.store }
    /// The pipeline file's absolute path: what the last run's components are remembered under.
    var pipeline: String { storeSession.pipeline }

    /// The store `location` names (or `storeRoot`, `--store`, when given), kept within `maxSize`
    /// (a `--cache-max-size` value) after a run, for `pipelineFile`, `flushingWrites` as
    /// `ContentStore.init` says (false for a run on this machine). `prepared` is used when it is
    /// that store and flushes its writes as asked (what it read already is not read again).
    /// With `remote` naming a remote cache (or its variable or configuration doing so), the
    /// store is the local one in front of it (`TieredStore`).
    static func open(
        _ location: CacheArguments, maxSize option: String? = nil, pipelineFile: String, storeRoot: String? = nil,
        flushingWrites: Bool = true, prepared: ContentStore? = nil, remote: RemoteCacheArguments? = nil
    ) async -> CacheSession {
        let currentDirectory = FileManager.default.currentDirectoryPath
        let maxSize: Int64
        do {
            maxSize = try await CacheArguments.maxSize(option: option)
        } catch {
            warn("\(error); keeping the cache within the default 5 GiB")
            maxSize = CacheConfiguration.defaultMaxSize
        }
        var session = await StoreSession.open(
            root: storeRoot.map { PathResolver.resolve($0, in: currentDirectory) } ?? location.root, registry: .builtIn,
            pipeline: PathResolver.resolve(pipelineFile, in: currentDirectory), maxSize: maxSize,
            flushingWrites: flushingWrites, prepared: prepared, displayDirectory: currentDirectory, warn: { warn($0) })
        var remoteClient: (client: HTTPCacheClient, settings: RemoteCacheSettings)?
        if let remote { remoteClient = await openRemote(remote) }
        if let (client, settings) = remoteClient {
            session.remote = TieredStore(
                local: session.store, remote: client, uploading: settings.uploads,
                signer: settings.secret.map { HMACSigner(secret: $0) }, warn: { warn($0) })
        }
        return CacheSession(storeSession: session, remoteClient: remoteClient)
    }

    /// The client of the remote cache `arguments`, the environment or the configuration name,
    /// if any; a configuration that cannot be used is a warning, and the run goes on without.
    static func openRemote(_ arguments: RemoteCacheArguments) async
        -> (client: HTTPCacheClient, settings: RemoteCacheSettings)?
    {
        let environment = ProcessEnvironment.variables
        do {
            let configuration = try await BlockingIO.run { try CacheConfiguration.load(environment: environment) }
            guard let settings = try arguments.settings(configuration: configuration, environment: environment) else {
                return nil
            }
            let client = HTTPCacheClient(baseURL: settings.url, headers: settings.headers)
            // Beside what comes before the run's first lookup (its keys' inputs hashed).
            Task { await client.prepare() }
            return (client, settings)
        } catch {
            warn("\(error); running without the remote cache")
            return nil
        }
    }

    /// What a run of `graph` with `reuse` would decide for each of its operations, running
    /// nothing: what `explain` and `run --dry-run` print.
    /// - Throws: `ValidationError` for a `--force` id that selects nothing.
    func decisions(
        for graph: ExecutionGraph, reuse: ReuseArguments
    ) async throws -> [(id: String, decision: Result<CacheDecision, ExplanationError>)] {
        let cache = storeSession.runCache(reuse: !reuse.noCache, forcing: try reuse.forcing(in: graph))
        return await cache.explain(graph)
    }

    /// After a run of `graph`: waits for the remote cache's uploads, then does what
    /// `StoreSession.finish` does. An `interrupted` run (Ctrl-C, SIGTERM) waits for no upload:
    /// those running are aborted.
    func finish(_ cache: RunCache, report: RunReport, graph: ExecutionGraph, wholeGraph: Bool, interrupted: Bool) async
    {
        await drainRemote(interrupted: interrupted)
        await storeSession.finish(cache, report: report, graph: graph, wholeGraph: wholeGraph)
    }

    /// Waits for the remote cache's uploads (at most `--remote-timeout`, not at all when
    /// `interrupted`), showing their progress on a terminal, and ends its client.
    private func drainRemote(interrupted: Bool) async {
        guard let remote = storeSession.remote, let (client, settings) = remoteClient else { return }
        let terminal = isatty(STDERR_FILENO) == 1
        let progress =
            terminal
            ? Task {
                while !Task.isCancelled {
                    let (finished, total) = remote.uploadProgress
                    if total > finished {
                        TextOutput.standardError.write("\rUploading to the remote cache: \(finished)/\(total)\u{1B}[K")
                        TextOutput.standardError.flush()
                    }
                    try? await Task.sleep(for: .milliseconds(100))
                }
            } : nil
        let finished = await remote.drain(timeout: interrupted ? .zero : settings.timeout)
        progress?.cancel()
        _ = await progress?.value
        if terminal {
            TextOutput.standardError.write("\r\u{1B}[K")
            TextOutput.standardError.flush()
        }
        if !finished, !interrupted {
            let (done, total) = remote.uploadProgress
            Self.warn(
                "stopped uploading to the remote cache after \(DurationText.format(settings.timeout)) (\(done) of "
                    + "\(total) uploads finished)"
            )
        }
        await client.shutDown()
    }

    /// Writes `taskgraph: warning: message` to standard error.
    static func warn(_ message: String) {
        TextOutput.standardError.write("taskgraph: warning: \(message)\n")
    }
}
