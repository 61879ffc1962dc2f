import Foundation
import Testing

/// A remote hit's output files: written from the blob that came down, which the local store
/// keeps; a file that already holds its blob is left alone.
extension RemoteCacheTests {
    /// `run --explain`'s line for `id`.
    private func explanation(of id: String, in stdout: String) -> Substring? {
        stdout.split(separator: "\n").first { $0.hasPrefix(id + ": ") }
    }

    @Test func aRemoteHitWritesItsMissingOutputsAndKeepsTheirBlobsInTheLocalStore() async throws {
        let server = try NginxServer()
        let (machineA, machineB, remote) = try await countUploadedByMachineA(to: server)
        let outputs = ["counted.txt", "out/count.txt"]

        let warm = try await run(["run", "count.yaml", "--no-progress", "--explain"] + remote, in: machineB)
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(warnings(warm.stderr).isEmpty, "\(warm.stderr)")
        #expect(explanation(of: "count", in: warm.stdout) == "count: cached: output missing: counted.txt (restored)")
        for output in outputs {
            #expect(
                try Data(contentsOf: machineB.appendingPathComponent(output))
                    == Data(contentsOf: machineA.appendingPathComponent(output)), "\(output)")
        }

        // Without the server, the local store alone restores them: their blobs were kept.
        for output in outputs { try FileManager.default.removeItem(at: machineB.appendingPathComponent(output)) }
        let local = try await run(["run", "count.yaml", "--no-progress", "--explain"], in: machineB)
        #expect(local.status == 0, "\(local.stderr)")
        #expect(
            explanation(of: "count", in: local.stdout) == "count: cached: output missing: counted.txt (restored)",
            "\(local.stdout)")
        for output in outputs {
            #expect(
                try Data(contentsOf: machineB.appendingPathComponent(output))
                    == Data(contentsOf: machineA.appendingPathComponent(output)), "\(output)")
        }
    }

    @Test func aRemoteHitLeavesAnOutputThatAlreadyHoldsItsBlob() async throws {
        let server = try NginxServer()
        let (machineA, machineB, remote) = try await countUploadedByMachineA(to: server)
        let output = machineB.appendingPathComponent("counted.txt")
        try FileManager.default.copyItem(at: machineA.appendingPathComponent("counted.txt"), to: output)
        let before = try FileManager.default.attributesOfItem(atPath: output.path)[.systemFileNumber] as? Int

        let warm = try await run(["run", "count.yaml", "--no-progress", "--explain"] + remote, in: machineB)
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(explanation(of: "count", in: warm.stdout) == "count: cached", "\(warm.stdout)")
        #expect(try FileManager.default.attributesOfItem(atPath: output.path)[.systemFileNumber] as? Int == before)
    }
}
