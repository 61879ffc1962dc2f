import Foundation
import TestSupport
import Testing

/// SIGINT during a download: `taskgraph` aborts the transfer, dies by SIGINT and leaves no file
/// behind.
@Suite struct DownloadCancellationTests {
    @Test func sigintMidTransferDiesBySIGINTAndWritesNothing() async throws {
        let server = try await TestServerProcess.start()
        defer { withExtendedLifetime(server) {} }
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            operations:
              fetch: {op: download, url: "http://127.0.0.1:\(server.port)/drip/1000/50"}
              keep: {op: save, needs: fetch, path: slow.bin}
            """, to: "slow.yaml", in: directory)
        let process = try TaskGraphProcess(["run", "slow.yaml", "--output", "out"], in: directory)
        for _ in 0..<200 where !process.standardError.contains("start     fetch (download)") {
            try await Task.sleep(for: .milliseconds(25))
        }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        process.send(SIGINT)
        let termination = await process.waitForTermination()
        let elapsed = ContinuousClock.now - start
        #expect(termination == .killed(by: SIGINT))
        // A hang guard: the latency itself is measured by bench/run-cancel.sh, since this suite runs beside CPU-heavy
        // tests.
        #expect(elapsed < .seconds(10), "exit took \(elapsed)")
        let written =
            (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)) ?? []
        #expect(written == [])
        #expect(process.standardError.contains("fetch      cancelled"))
    }
}
