import Foundation
import TaskGraphCore
import TaskGraphNetwork
import TaskGraphSlurm
import TaskGraphStore

/// A cluster run's jobs through the remote cache, for nodes that share no file system with the
/// driver (docs/cluster.md, "Without a shared file system"): each job is a blob (`cas/<sha256>`)
/// put after the blobs of its inputs, its worker is given `sha256:<hex>/<run>-<job>`, and the
/// worker puts its completion record at `ac/<completion key>` once its results are up.
struct RemoteCacheJobExchange: JobExchange {
    /// The driver's local store in front of the remote cache.
    let store: TieredStore
    let client: HTTPCacheClient
    /// The remote cache's URL, which workers are given.
    let url: String

    var workerOptions: [String] { ["--remote-cache", url] }

    func publish(_ job: RemoteJob, as name: String) async throws -> String {
        try await store.upload(job.inputs.map(\.digest))
        let data = try job.encoded()
        let digest = ContentDigest.sha256(of: data)
        try await client.put("cas/" + digest.hex, data)
        return "\(digest)/\(name)"
    }

    func completion(of reference: String) async throws -> RemoteCompletion? {
        guard let data = try await client.get("ac/" + Self.completionKey(of: reference).hex) else { return nil }
        return try RemoteCompletion(encoded: data)
    }

    func receive(_ records: [ActionRecord]) async throws {
        for file in records.flatMap(\.outputFiles) { _ = try await store.materialize(file.digest, at: file.path) }
    }

    /// Where the completion record of the job published as `reference` goes: a key of its own
    /// per run and attempt (the reference names both), never an operation's.
    static func completionKey(of reference: String) -> ContentDigest {
        ContentDigest.sha256(of: Data("taskgraph job completion 1\n\(reference)".utf8))
    }

    /// The job a worker is given as `reference` (`sha256:<hex>/<name>`), fetched and checked
    /// against its digest.
    /// - Throws: `RemoteJobError` when the reference is malformed or the job is not there whole.
    static func job(_ reference: String, from client: HTTPCacheClient) async throws -> RemoteJob {
        guard let digest = reference.split(separator: "/").first.flatMap({ ContentDigest(String($0)) }) else {
            throw RemoteJobError.malformedReference(reference)
        }
        guard let data = try await client.get("cas/" + digest.hex), ContentDigest.sha256(of: data) == digest else {
            throw RemoteJobError.missingJob(digest)
        }
        return try JSONDecoder().decode(RemoteJob.self, from: data)
    }
}

/// Why a worker cannot fetch its job from the remote cache.
enum RemoteJobError: Error, CustomStringConvertible {
    /// The job reference is not `sha256:<hex>/<name>`.
    case malformedReference(String)
    /// The remote cache has no job blob of that digest, or a damaged one.
    case missingJob(ContentDigest)

    var description: String {
        switch self {
        case .malformedReference(let reference):
            "'\(reference)' is neither a job file (NAME.job) nor a job in the remote cache (sha256:…/NAME)"
        case .missingJob(let digest): "the remote cache holds no job \(digest)"
        }
    }
}
