import Foundation
import TaskGraphCore
import Testing

/// A cluster worker without a shared store (docs/cluster.md, "Without a shared file system"):
/// each node's own store in front of the remote cache.
extension RemoteCacheTests {
    /// The job of operation `id` of the count pipeline in `checkout`, written there as `name`.
    private func writeJob(
        _ name: String, of id: String, in checkout: URL, inputs: [RemoteJob.Input] = [], key: ContentDigest? = nil
    ) throws {
        let pipeline = try Pipeline.load(
            text: Self.countPipeline, file: checkout.appendingPathComponent("count.yaml").path,
            options: PipelineOptions(outputDirectory: checkout.appendingPathComponent("out").path))
        let setup = try #require(pipeline.graph.nodes.first { $0.id == id }?.setup)
        try RemoteJob(setup: setup, attempt: 1, inputs: inputs, key: key, components: key.map { _ in KeyComponents() })
            .encoded().write(to: checkout.appendingPathComponent(name))
    }

    private func completion(_ name: String, in checkout: URL) throws -> RemoteCompletion {
        try RemoteCompletion(encoded: Data(contentsOf: checkout.appendingPathComponent(name)))
    }

    private func isStored(_ path: String, on server: NginxServer) -> Bool {
        FileManager.default.fileExists(atPath: server.stored(path).path)
    }

    @Test func aWorkerWithoutASharedStoreDownloadsItsInputsAndUploadsWhatItsCompletionNames() async throws {
        let server = try NginxServer()
        let root = try fixtureDirectory()
        let nodeA = try countCheckout("node-a", in: root)
        let nodeB = try countCheckout("node-b", in: root)
        let remote = ["--remote-cache", server.url("cache")]
        let key = ContentDigest.sha256(of: Data("the count job's key".utf8))

        try writeJob("job-1.job", of: "count", in: nodeA, key: key)
        let first = try await run(["worker"] + remote + ["job-1.job"], in: nodeA)
        #expect(first.status == 0, "\(first.stderr)")
        let counted = try #require(try completion("job-1.done", in: nodeA).records.first)
        #expect(counted.blobs.count == 2)
        #expect(counted.blobs.allSatisfy { isStored("cache/cas/" + $0.hex, on: server) })
        #expect(isStored("cache/ac/" + key.hex, on: server))

        // Node B's store is empty: the input comes down; the saved file's blob goes up, with no key.
        try writeJob("job-2.job", of: "keep", in: nodeB, inputs: [RemoteJob.Input(id: "count", digest: counted.result)])
        let second = try await run(["worker"] + remote + ["job-2.job"], in: nodeB)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(server.requests().contains { $0.method == "GET" && $0.path == "/cache/cas/" + counted.result.hex })
        let kept = try #require(try completion("job-2.done", in: nodeB).records.first)
        #expect(kept.blobs.allSatisfy { isStored("cache/cas/" + $0.hex, on: server) })
        #expect(try String(contentsOf: nodeB.appendingPathComponent("out/count.txt"), encoding: .utf8) == "12 bytes\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.stored("cache/ac").path) == [key.hex])
    }

    @Test func aWorkerThatCannotUploadItsResultReportsAFailureNotTheResult() async throws {
        let server = try NginxServer()
        let node = try countCheckout("node", in: try fixtureDirectory())
        try writeJob("job-1.job", of: "count", in: node)
        server.stop()
        let result = try await run(["worker", "--remote-cache", server.url("cache"), "job-1.job"], in: node)
        #expect(result.status == 1)
        #expect(
            try completion("job-1.done", in: node) == .failed("the results could not be uploaded to the remote cache"))
        #expect(
            result.stderr.hasSuffix("taskgraph: error: count: the results could not be uploaded to the remote cache\n"),
            "\(result.stderr)")
    }

    @Test(arguments: [
        (signature: nil, name: "unsigned"), (signature: Data(repeating: 7, count: 32), name: "wrongly signed"),
    ])
    func aWorkerOfASignedCacheRefusesAJobNotSignedWithItsKeyAndSaysSoInItsCompletion(
        signature: Data?, name: String
    ) async throws {
        let server = try NginxServer()
        let node = try countCheckout("node", in: try fixtureDirectory())
        try writeJob("job-1.job", of: "count", in: node)
        let json = try Data(contentsOf: node.appendingPathComponent("job-1.job"))
        let blob = signature.map { Data("TGRS".utf8) + Data([1]) + $0 + json } ?? json
        let digest = ContentDigest.sha256(of: blob)
        try FileManager.default.createDirectory(
            at: server.stored("cache/cas"), withIntermediateDirectories: true)
        try blob.write(to: server.stored("cache/cas/" + digest.hex))
        let reference = "\(digest)/taskgraph-0123456789ab-job-1"

        let result = try await run(
            ["worker", "--remote-cache", server.url("cache"), "--remote-cache-key-env", "CLUSTER_KEY", reference],
            in: node, environment: ["CLUSTER_KEY": "the cluster's key"])
        #expect(result.status == 1)
        let message = "cannot read the job \(reference): the job is not signed with the remote cache's key"
        #expect(result.stderr == "taskgraph: error: \(message)\n", "\(name)")
        #expect(!FileManager.default.fileExists(atPath: node.appendingPathComponent("out/counted.txt").path))
        // The completion record says why, signed with the worker's key for this job.
        let completionKey = ContentDigest.sha256(of: Data("taskgraph job completion 2\n\(reference)".utf8))
        let completion = try Data(contentsOf: server.stored("cache/ac/" + completionKey.hex))
        #expect(completion.prefix(5) == Data("TGRS".utf8) + Data([1]))
        #expect(try RemoteCompletion(encoded: completion.dropFirst(5 + 32)) == .failed(message))
    }

    @Test func aWorkerNeedsASharedStoreOrARemoteCache() async throws {
        let node = try countCheckout("node", in: try fixtureDirectory())
        try writeJob("job-1.job", of: "count", in: node)
        let result = try await run(["worker", "job-1.job"], in: node)
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("the worker needs --store (a store shared with the driver) or a remote cache"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: node.appendingPathComponent("job-1.done").path))
    }
}
