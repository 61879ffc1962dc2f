import Foundation
import TaskGraphCore
import Testing

/// The remote cache's blobs: a `save`'s result damaged on the server, and small blobs sent
/// without a `HEAD` first.
extension RemoteCacheTests {
    @Test func aSavesResultAlteredInItsRecordOnTheServerReadsAsNoRecordAndItRunsAgain() async throws {
        let server = try NginxServer()
        let (machineA, machineB, remote) = try await countUploadedByMachineA(to: server)
        // The save's result names machine A's file; its record holds it (docs/cache.md,
        // "Records"), and machine B reads it to name its own. No blob holds it.
        let savedPath = Data(machineA.appendingPathComponent("out/count.txt").standardizedFileURL.path.utf8)
        let blobs = try FileManager.default.contentsOfDirectory(
            at: server.stored("cache/cas"), includingPropertiesForKeys: nil)
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

    @Test func aWriterSendsSmallBlobsWithoutAskingTheServerFirst() async throws {
        let server = try NginxServer()
        let machine = try countCheckout("ci", in: try fixtureDirectory())
        let result = try await run(
            ["run", "count.yaml", "--no-progress", "--remote-cache", server.url("cache")], in: machine)
        #expect(result.status == 0, "\(result.stderr)")
        let requests = server.requests()
        #expect(!requests.contains { $0.method == "HEAD" })
        let stored = try FileManager.default.contentsOfDirectory(atPath: server.stored("cache/cas").path)
        let sent = requests.filter { $0.method == "PUT" && $0.path.hasPrefix("/cache/cas/") }
            .map { String($0.path.dropFirst("/cache/cas/".count)) }
        #expect(Set(sent) == Set(stored))
        #expect(requests.filter { $0.method == "PUT" && $0.path.hasPrefix("/cache/ac/") }.count == 2)
    }
}
