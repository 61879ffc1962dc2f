import Foundation
import TaskGraphCore
import TaskGraphNetwork
import TaskGraphSlurm
import TaskGraphStore

/// A cluster run's jobs through the remote cache, for nodes that share no file system with the
/// driver (docs/cluster.md, "Without a shared file system"): each job is a blob (`cas/<sha256>`)
/// put after the blobs of its inputs and of the files it reads (`RemoteJob.carryingFiles`), its
/// worker is given `sha256:<hex>/<run>-<job>`, and the worker puts its completion record at
/// `ac/<completion key>` once its results are up. With a signing key, jobs and completion
/// records are signed (`SignedEnvelope`) and read only when their signature holds.
struct RemoteCacheJobExchange: JobExchange {
    /// The driver's local store in front of the remote cache.
    let store: TieredStore
    let client: HTTPCacheClient
    /// The remote cache's URL, which workers are given.
    let url: String
    /// The headers sent with every request (`Name: value`, secret): workers get them through
    /// their environment (`headersVariable`).
    var headers: [String] = []
    /// The variable holding the signing key (`--remote-cache-key-env`), when the cache is signed;
    /// its value reaches workers as every variable of the driver's environment does.
    var keyVariable: String?
    /// Signs jobs and checks completion records, when the cache is signed.
    var signer: (any RecordSigner)?

    /// The variable a worker reads its remote cache's headers from, one `Name: value` a line
    /// (docs/cluster.md, "Credentials").
    static let headersVariable = "TASKGRAPH_REMOTE_HEADERS"

    var workerOptions: [String] {
        ["--remote-cache", url] + (keyVariable.map { ["--remote-cache-key-env", $0] } ?? [])
    }

    var workerEnvironment: [String: String] {
        headers.isEmpty ? [:] : [Self.headersVariable: headers.joined(separator: "\n")]
    }

    func publish(_ job: RemoteJob, as name: String) async throws -> String {
        let job = try await job.carryingFiles(registry: .builtIn, store: store)
        try await store.upload(job.inputs.map(\.digest) + (job.files ?? []).map(\.digest))
        let data = SignedEnvelope.seal(try job.encoded(), signer: signer)
        let digest = ContentDigest.sha256(of: data)
        try await client.put("cas/" + digest.hex, data)
        return "\(digest)/\(name)"
    }

    func completion(of reference: String) async throws -> RemoteCompletion? {
        guard let data = try await client.get("ac/" + Self.completionKey(of: reference).hex) else { return nil }
        guard let bytes = SignedEnvelope.open(data, context: Data(reference.utf8), signer: signer) else {
            throw RemoteJobError.unsigned("completion record")
        }
        return try RemoteCompletion(encoded: bytes)
    }

    func receive(_ records: [ActionRecord]) async throws {
        for file in records.flatMap(\.outputFiles) { _ = try await store.materialize(file) }
    }

    /// Where the completion record of the job published as `reference` goes: a key of its own
    /// per run and attempt (the reference names both), never an operation's.
    static func completionKey(of reference: String) -> ContentDigest {
        ContentDigest.sha256(of: Data("taskgraph job completion 2\n\(reference)".utf8))
    }

    /// Puts `completion` of the job `reference` at its completion key, signed for that job when
    /// there is a `signer`.
    static func deliver(
        _ completion: RemoteCompletion, of reference: String, to client: HTTPCacheClient, signer: (any RecordSigner)?
    ) async throws {
        let data = SignedEnvelope.seal(try completion.encoded(), context: Data(reference.utf8), signer: signer)
        try await client.put("ac/" + completionKey(of: reference).hex, data)
    }

    /// The job a worker is given as `reference` (`sha256:<hex>/<name>`), fetched and checked
    /// against its digest and, with `signer`, its signature.
    /// - Throws: `RemoteJobError` when the reference is malformed or the job is not there whole
    ///   or not signed with the key.
    static func job(_ reference: String, from client: HTTPCacheClient, signer: (any RecordSigner)?) async throws
        -> RemoteJob
    {
        guard let digest = reference.split(separator: "/").first.flatMap({ ContentDigest(String($0)) }) else {
            throw RemoteJobError.malformedReference(reference)
        }
        guard let data = try await client.get("cas/" + digest.hex), ContentDigest.sha256(of: data) == digest else {
            throw RemoteJobError.missingJob(digest)
        }
        guard let bytes = SignedEnvelope.open(data, signer: signer) else { throw RemoteJobError.unsigned("job") }
        return try JSONDecoder().decode(RemoteJob.self, from: bytes)
    }
}

/// Why a job or its completion record cannot be read from the remote cache.
enum RemoteJobError: Error, CustomStringConvertible {
    /// The job reference is not `sha256:<hex>/<name>`.
    case malformedReference(String)
    /// The remote cache has no job blob of that digest, or a damaged one.
    case missingJob(ContentDigest)
    /// The cache is signed, and the job or completion record (named) is not signed with its key.
    case unsigned(String)

    var description: String {
        switch self {
        case .malformedReference(let reference):
            "'\(reference)' is neither a job file (NAME.job) nor a job in the remote cache (sha256:…/NAME)"
        case .missingJob(let digest): "the remote cache holds no job \(digest)"
        case .unsigned(let what): "the \(what) is not signed with the remote cache's key"
        }
    }
}
