import Foundation
import Testing

/// Fusion on the suite's cluster (one suite: the cluster is started and stopped per suite, so
/// two suites would stop it under each other): a linear chain of operations runs as one job
/// (docs/cluster.md, "Fusion").
extension SlurmExecutorTests {
    /// The distinct job ids the events file at `path` names.
    private func jobIDs(inEvents path: URL) throws -> Set<String> {
        let events = try String(contentsOf: path, encoding: .utf8)
        return Set(events.matches(of: /"job":\{"id":"([0-9_]+)"/).map { String($0.1) })
    }

    @Test func fusedPhotosAreByteIdenticalToALocalRunWithFewerJobsAndASecondRunSubmitsNone() async throws {
        let (driver, store) = try workspace(copying: ["photos.yaml", "photos"])
        let local = try await TaskGraphProcess.run(
            ["run", "photos.yaml", "--output", "local", "--no-progress"], in: driver)
        #expect(local.status == 0, "\(local.stderr)")
        let first = try await run(
            ["photos.yaml", "--output", "cluster", "--fuse", "--events", "events.jsonl"], in: driver, store: store)
        #expect(first.status == 0, "\(first.stderr)")
        // Per photo: download+decrypt, tilt+tone, thumbnail+save-thumbnail, save, sheet-cell;
        // then contact-sheet+save-contact-sheet: 16 jobs where unfused submits 26.
        #expect(first.stderr.contains("slurm: 16 jobs submitted, "), "\(first.stderr)")
        #expect(try jobIDs(inEvents: driver.appendingPathComponent("events.jsonl")).count == 16)
        #expect(first.stderr.contains("\n26 ok in "))
        #expect(first.stderr.contains("\n16 remote jobs: queue wait "), "\(first.stderr)")
        #expect(
            line("tone[sunset] ", in: first.stderr)?.hasPrefix("tone[sunset] ok T T T 1200×800 RGB") == true,
            "\(first.stderr)")
        for name in Self.photos {
            let expected = try Data(contentsOf: driver.appendingPathComponent("local/\(name)"))
            #expect(try Data(contentsOf: driver.appendingPathComponent("cluster/\(name)")) == expected, "\(name)")
        }
        let second = try await run(["photos.yaml", "--output", "cluster", "--fuse"], in: driver, store: store)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("slurm: 0 jobs submitted, 0 queue queries "), "\(second.stderr)")
        #expect(second.stderr.contains("\n26 cached in "))
    }

    @Test func aFailingInnerOperationFailsAndItsDependentsAreSkipped() async throws {
        let (driver, store) = try workspace()
        try write(
            """
            version: 1
            name: chain
            defaults:
              fuse: true
            operations:
              first:
                op: exec
                command: [sh, -c, "echo one"]
              broken:
                op: exec
                needs: first
                command: [sh, -c, "exit 3"]
              last:
                op: exec
                needs: broken
                command: [sh, -c, "echo three"]

            """, to: "chain.yaml", in: driver)
        let result = try await run(
            ["chain.yaml", "--output", "out", "--events", "events.jsonl"], in: driver, store: store)
        #expect(result.status == 1)
        #expect(result.stderr.contains("slurm: 1 job submitted, "), "\(result.stderr)")
        #expect(line("first ", in: result.stderr)?.hasPrefix("first ok T T T ") == true, "\(result.stderr)")
        #expect(
            line("broken ", in: result.stderr) == "broken failed T T - 'sh' exited with status 3 (slurm job N)",
            "\(result.stderr)")
        #expect(line("last ", in: result.stderr) == "last skipped - - - 'broken' failed", "\(result.stderr)")
        #expect(try jobIDs(inEvents: driver.appendingPathComponent("events.jsonl")).count == 1)
        #expect(result.stderr.contains("\n1 ok, 1 failed, 1 skipped in "), "\(result.stderr)")
        #expect(result.stderr.contains("\n1 remote job: queue wait "), "\(result.stderr)")
    }
}
