import Foundation
import Testing

/// SIGINT during a download: `taskgraph` aborts the transfer, exits 130 within 0.5 s and leaves no
/// file behind.
@Suite struct DownloadCancellationTests {
    /// Starts the download tests' server (TaskGraphTests/Networking/Fixtures/test_server.py) and
    /// returns its port and the write end of its stdin: the server exits when that closes.
    /// Waits for the port on a Dispatch thread, never blocking the cooperative pool.
    private func startServer() async throws -> (port: Int, lifeline: FileHandle) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try launchServer() }) }
        }
    }

    private func launchServer() throws -> (port: Int, lifeline: FileHandle) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../TaskGraphTests/Networking/Fixtures/test_server.py").standardizedFileURL
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", script.path]
        let input = Pipe()
        let output = Pipe()
        server.standardInput = input
        server.standardOutput = output
        try server.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return (port, input.fileHandleForWriting)
    }

    @Test func sigintMidTransferExits130Within500msAndWritesNothing() async throws {
        let server = try await startServer()
        defer { try? server.lifeline.close() }
        let directory = try fixtureDirectory()
        try write("""
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
        let status = await process.waitForExit()
        let elapsed = ContinuousClock.now - start
        #expect(status == 130)
        // A hang guard: the latency itself is measured by bench/run-cancel.sh, since this suite runs beside CPU-heavy tests.
        #expect(elapsed < .seconds(10), "exit took \(elapsed)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)) ?? []
        #expect(written == [])
        #expect(process.standardError.contains("fetch      cancelled"))
    }
}
