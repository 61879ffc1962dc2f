import Foundation
import TaskGraphCore
import Testing

/// The remote cache's blobs: a `save`'s result damaged on the server, and small blobs sent
/// without a `HEAD` first.
extension RemoteCacheTests {
    @Test func aSavesResultAlteredOnTheServerIsWarnedAboutOnceAndRecomputed() async throws {
        let server = try NginxServer()
        let (machineA, machineB, remote) = try await countUploadedByMachineA(to: server)
        // The save's result names machine A's file; machine B reads it to name its own.
        let savedPath = Data(machineA.appendingPathComponent("out/count.txt").standardizedFileURL.path.utf8)
        let blobs = try FileManager.default.contentsOfDirectory(at: server.stored("cache/cas"), includingPropertiesForKeys: nil)
        let results = try blobs.filter { try Data(contentsOf: $0).range(of: savedPath) != nil }
        #expect(results.count == 1)
        let blob = try #require(results.first)
        try Data("tampered\n".utf8).write(to: blob)

        let result = try await run(["run", "count.yaml", "--no-progress"] + remote, in: machineB)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(warnings(result.stderr) == [
            "taskgraph: warning: remote cache entry for keep is damaged (blob sha256:\(blob.lastPathComponent) does not match its digest), recomputed",
        ], "\(result.stderr)")
        #expect(try Data(contentsOf: machineB.appendingPathComponent("out/count.txt"))
            == Data(contentsOf: machineA.appendingPathComponent("out/count.txt")))
    }

    @Test func aWriterSendsSmallBlobsWithoutAskingTheServerFirst() async throws {
        let server = try NginxServer()
        let machine = try countCheckout("ci", in: try fixtureDirectory())
        let result = try await run(["run", "count.yaml", "--no-progress", "--remote-cache", server.url("cache")], in: machine)
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
