import Foundation

extension RemoteJob {
    /// The job with `files` set: each file its operations' keys rest on that lies beneath their
    /// pipeline or output directories (a `load`'s file, an `exec`'s `inputs:` and a program of
    /// the checkout, a `decrypt`'s key file), stored in `store` for the driver to upload. Files
    /// elsewhere (`/usr/bin/sh`) are the node's own.
    /// - Throws: `RemoteJobFilesError.changed` when a file no longer holds what the job's key
    ///   was computed from (it changed during the run), so no result is recorded under a key
    ///   for other contents; what making an action or storing a file throws.
    public func carryingFiles(registry: OperationRegistry, store: any ResultStore) async throws -> RemoteJob {
        var files: [String: ContentDigest] = [:]
        for setup in [setup] + (chain ?? []) {
            guard let action = try registry.makeAction(for: setup).action as? any CacheableAction else { continue }
            let recorder = RecordingDigester(store)
            var read = KeyComponents()
            try await action.addKeyComponents(to: &read, files: recorder)
            let roots = [setup.pipelineDirectory, setup.outputDirectory].map { PathResolver.normalized($0) + "/" }
            var stored: [String: ContentDigest] = [:]
            for path in recorder.paths where stored[path] == nil && roots.contains(where: path.hasPrefix) {
                stored[path] = try await store.storeFile(at: path)
            }
            if let components {
                // What the worker will read must be what the key says it read.
                var carried = KeyComponents()
                try await action.addKeyComponents(to: &carried, files: PinnedDigests(digests: stored, digester: store))
                if let changed = carried.components.first(where: { !components.components.contains($0) }) {
                    throw RemoteJobFilesError.changed(operation: setup.id, component: changed.name)
                }
            }
            files.merge(stored) { first, _ in first }
        }
        let paths = files.keys.sorted()
        let executable = try await BlockingIO.run { paths.map { access($0, X_OK) == 0 } }
        var job = self
        job.files = zip(paths, executable).map { File(path: $0, digest: files[$0]!, executable: $1) }
        return job
    }
}

/// A `FileDigesting` that answers with the digests of files already stored, else asks `digester`.
private struct PinnedDigests: FileDigesting {
    let digests: [String: ContentDigest]
    let digester: any FileDigesting

    func digest(ofFile path: String) async throws -> ContentDigest {
        if let digest = digests[path] { return digest }
        return try await digester.digest(ofFile: path)
    }

    func blockingDigest(ofFile path: String) throws -> ContentDigest {
        try digests[path] ?? digester.blockingDigest(ofFile: path)
    }
}

/// Why a job's files cannot be handed to a node that shares no file system with the driver.
public enum RemoteJobFilesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file the operation reads changed after its key was computed: `component` of its key.
    case changed(operation: String, component: String)

    public var description: String {
        switch self {
        case .changed(let operation, let component):
            "\(operation): '\(component)' changed during the run; run again to use what it holds now"
        }
    }
}
