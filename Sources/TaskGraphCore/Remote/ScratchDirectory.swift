import Foundation

/// Where a worker runs a job that carries its files (`RemoteJob.files`), on a node that shares
/// no file system with the driver: a new directory `root` in which the driver's path `P` is
/// `root + P`. The job's pipeline and output directories are moved there, its files written
/// there from the store, and what it leaves is named with the driver's paths again, so its
/// results and records are those a run on the driver's machine makes.
struct ScratchDirectory: Sendable {
    /// The directory, absolute, without a trailing `/`.
    let root: String

    /// A new directory below `$TMPDIR` (else `/tmp`) holding `job`'s files, each from `store`
    /// (downloaded where the store is a remote cache's), with its pipeline and output
    /// directories made.
    /// - Throws: what creating the directory or materialising a file throws.
    static func make(for job: RemoteJob, store: any ResultStore) async throws -> ScratchDirectory {
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let scratch = ScratchDirectory(
            root: PathResolver.normalized(temporary) + "/taskgraph-job-" + UUID().uuidString.lowercased())
        let directories =
            ([job.setup] + (job.chain ?? [])).flatMap { [$0.pipelineDirectory, $0.outputDirectory] }
            + (job.files ?? []).map { ($0.path as NSString).deletingLastPathComponent }
        try await BlockingIO.run {
            for directory in [scratch.root] + directories.map(scratch.moved) {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        }
        for file in job.files ?? [] {
            let path = scratch.moved(file.path)
            _ = try await store.materialize(file.digest, at: path)
            guard file.executable else { continue }
            try await BlockingIO.run {
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            }
        }
        return scratch
    }

    /// Where the driver's `path` (absolute) is here.
    func moved(_ path: String) -> String { root + PathResolver.normalized(path) }

    /// `setup` with its pipeline and output directories here.
    func moved(_ setup: OperationSetup) -> OperationSetup {
        var setup = setup
        setup.pipelineDirectory = moved(setup.pipelineDirectory)
        setup.outputDirectory = moved(setup.outputDirectory)
        return setup
    }

    /// `path` as the driver names it: without `root` when it is beneath it.
    func back(_ path: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count)) : path
    }

    /// `result` as the operation gives it on the driver's machine: every path it names
    /// (`OperationResult.withPaths(mapped:)`) is the driver's.
    func back(_ result: any OperationResult) -> any OperationResult {
        result.withPaths { path in back(path) }
    }

    /// `record` with its output files named by the driver's paths.
    func back(_ record: ActionRecord) -> ActionRecord {
        var record = record
        for index in record.outputFiles.indices {
            record.outputFiles[index].path = back(record.outputFiles[index].path)
        }
        return record
    }

    /// `message` with every path here named as the driver names it.
    func back(message: String) -> String { message.replacingOccurrences(of: root + "/", with: "/") }

    /// Removes the directory and everything in it.
    func remove() async {
        let root = root
        _ = try? await BlockingIO.run { try FileManager.default.removeItem(atPath: root) }
    }
}
