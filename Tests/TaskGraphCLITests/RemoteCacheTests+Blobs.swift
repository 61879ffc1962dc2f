import Foundation
import TaskGraphCore
import Testing

/// The remote cache's blobs: a `save`'s result damaged on the server, small blobs sent without a
/// `HEAD` first, a blob damaged on the server, and none asked for when a record holds its file.
extension RemoteCacheTests {
    @Test func aSavesResultAlteredInItsRecordOnTheServerReadsAsNoRecordAndItRunsAgain() async throws {
        let server = try NginxServer()
        let (machineA, machineB, remote) = try await countUploadedByMachineA(to: server)
        // The save's result names machine A's file; its record holds it (docs/cache.md,
        // "Records"), and machine B reads it to name its own. No blob holds it.
        let savedPath = Data(machineA.appendingPathComponent("out/count.txt").standardizedFileURL.path.utf8)
        // (Every output is small enough for its record to hold too: the server may hold no blob.)
        let blobs =
            (try? FileManager.default.contentsOfDirectory(
                at: server.stored("cache/cas"), includingPropertiesForKeys: nil))
            ?? []
        #expect(try blobs.filter { try Data(contentsOf: $0).range(of: savedPath) != nil }.isEmpty)
        let records = try FileManager.default.contentsOfDirectory(
            at: server.stored("cache/ac"), includingPropertiesForKeys: nil)
        let holding = try records.filter { try Data(contentsOf: $0).range(of: savedPath) != nil }
        #expect(holding.count == 1)
        let record = try #require(holding.first)
        var altered = try Data(contentsOf: record)
        altered[try #require(altered.range(of: savedPath)).upperBound - 1] ^= 1
        try altered.write(to: record)

        let result = try await run(["run", "count.yaml", "--no-progress", "--explain"] + remote, in: machineB)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(warnings(result.stderr).isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("keep: run: "), "\(result.stdout)")
        #expect(
            try Data(contentsOf: machineB.appendingPathComponent("out/count.txt"))
                == Data(contentsOf: machineA.appendingPathComponent("out/count.txt")))
    }

    /// A pipeline whose program writes a file of 2 KiB and 12 bytes: more than a record holds,
    /// so a blob, but less than the 64 KiB sent without asking the server first.
    static let paddedPipeline = """
        version: 1
        name: padded
        operations:
          pad:
            op: exec
            command: [sh, -c, 'head -c 2048 /dev/zero > padded.txt; cat data.txt >> padded.txt']
            inputs: [data.txt]
            outputs: [padded.txt]
        """

    /// A checkout of the count pipeline at `name` below `root` with the padded pipeline beside it.
    private func paddedCheckout(_ name: String, in root: URL) throws -> URL {
        let directory = try countCheckout(name, in: root)
        try write(Self.paddedPipeline, to: "padded.yaml", in: directory)
        return directory
    }

    @Test func aWriterSendsSmallBlobsWithoutAskingTheServerFirst() async throws {
        let server = try NginxServer()
        let machine = try paddedCheckout("ci", in: try fixtureDirectory())
        let result = try await run(
            ["run", "padded.yaml", "--no-progress", "--remote-cache", server.url("cache")], in: machine)
        #expect(result.status == 0, "\(result.stderr)")
        let requests = server.requests()
        #expect(!requests.contains { $0.method == "HEAD" })
        let stored = try FileManager.default.contentsOfDirectory(atPath: server.stored("cache/cas").path)
        let sent = requests.filter { $0.method == "PUT" && $0.path.hasPrefix("/cache/cas/") }
            .map { String($0.path.dropFirst("/cache/cas/".count)) }
        #expect(Set(sent) == Set(stored))
        #expect(
            sent == [ContentDigest.sha256(of: try Data(contentsOf: machine.appendingPathComponent("padded.txt"))).hex])
        #expect(requests.filter { $0.method == "PUT" && $0.path.hasPrefix("/cache/ac/") }.count == 1)
    }

    @Test func aBlobAlteredOnTheServerIsDetectedRecomputedAndUploadedAgain() async throws {
        let server = try NginxServer()
        let root = try fixtureDirectory()
        let (machineA, machineB) = (try paddedCheckout("a", in: root), try paddedCheckout("b", in: root))
        let remote = ["--remote-cache", server.url("cache")]
        let first = try await run(["run", "padded.yaml", "--no-progress"] + remote, in: machineA)
        #expect(first.status == 0, "\(first.stderr)")
        let good = try Data(contentsOf: machineA.appendingPathComponent("padded.txt"))
        let blob = server.stored("cache/cas/" + ContentDigest.sha256(of: good).hex)
        try Data("tampered\n".utf8).write(to: blob)

        let result = try await run(["run", "padded.yaml", "--no-progress", "--explain"] + remote, in: machineB)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            warnings(result.stderr) == [
                "taskgraph: warning: remote cache entry for pad is damaged (blob "
                    + "sha256:\(ContentDigest.sha256(of: good).hex) does not match its digest), recomputed"
            ], "\(result.stderr)")
        #expect(try Data(contentsOf: machineB.appendingPathComponent("padded.txt")) == good)
        #expect(try Data(contentsOf: blob) == good)
    }

    /// Machine B's hits on records holding their results and files (docs/cache.md, "Records"):
    /// one request each, its record, and the files written from the records' bytes.
    @Test func aHitOnARecordHoldingItsOutputIsOneRequest() async throws {
        let server = try NginxServer()
        let (machineA, machineB, remote) = try await countUploadedByMachineA(to: server)
        #expect(!server.requests().contains { $0.path.hasPrefix("/cache/cas/") })
        let before = server.requests().count

        let hits = try await run(["run", "count.yaml", "--no-progress", "--explain"] + remote, in: machineB)
        #expect(hits.status == 0, "\(hits.stderr)")
        let lines = hits.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(": cached") }, "\(hits.stdout)")
        let requests = server.requests().dropFirst(before)
        #expect(requests.map(\.method) == ["GET", "GET"])
        #expect(requests.allSatisfy { $0.path.hasPrefix("/cache/ac/") })
        for output in ["counted.txt", "out/count.txt"] {
            #expect(
                try Data(contentsOf: machineB.appendingPathComponent(output))
                    == Data(contentsOf: machineA.appendingPathComponent(output)), "\(output)")
        }
    }
}
