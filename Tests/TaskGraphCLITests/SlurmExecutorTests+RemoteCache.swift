import Foundation
import Testing

/// `run --executor slurm` without a shared store (docs/cluster.md, "Without a shared file
/// system"): jobs, inputs, results and completion records go through a real nginx; the workers
/// keep a store of their own (Slurm's `--export` gives them another `TASKGRAPH_CACHE_DIR`).
extension SlurmExecutorTests {
    /// `taskgraph run arguments… --executor slurm --remote-cache …` in `driver`, with the store
    /// `store`; its jobs' workers use `workerStore`.
    private func runThroughCache(
        _ arguments: [String], in driver: URL, server: NginxServer, store: URL, workerStore: URL
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await TaskGraphProcess.run(
            ["run"] + arguments + ["--executor", "slurm", "--no-progress", "--remote-cache", server.url("cache")],
            in: driver,
            environment: SlurmCluster.environment.merging([
                "TASKGRAPH_CACHE_DIR": store.path, "SBATCH_EXPORT": "ALL,TASKGRAPH_CACHE_DIR=\(workerStore.path)",
            ]) { $1 })
    }

    /// Whether the photos `driver` wrote to `output` are byte for byte those of its `local` run.
    private func expectPhotosOfALocalRun(in driver: URL, output: String) throws {
        for name in Self.photos {
            let expected = try Data(contentsOf: driver.appendingPathComponent("local/\(name)"))
            #expect(try Data(contentsOf: driver.appendingPathComponent("\(output)/\(name)")) == expected, "\(name)")
        }
    }

    @Test(arguments: [(fused: false, jobs: 26), (fused: true, jobs: 16)])
    func withARemoteCacheAndNoSharedStoreEverythingGoesThroughTheCache(fused: Bool, jobs: Int) async throws {
        let server = try NginxServer()
        let (driver, driverStore) = try workspace(copying: ["photos.yaml", "photos"])
        let workerStore = try fixtureDirectory()
        let local = try await TaskGraphProcess.run(
            ["run", "photos.yaml", "--output", "local", "--no-progress"], in: driver)
        #expect(local.status == 0, "\(local.stderr)")
        let arguments = ["photos.yaml"] + (fused ? ["--fuse"] : [])
        let first = try await runThroughCache(
            arguments + ["--output", "cluster"], in: driver, server: server, store: driverStore,
            workerStore: workerStore)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stderr.contains(/slurm: run taskgraph-[0-9a-f]+, jobs through the remote cache\n/), "\(first.stderr)")
        #expect(
            line("slurm: \(jobs) jobs", in: first.stderr)?.hasPrefix("slurm: \(jobs) jobs submitted, ") == true,
            "\(first.stderr)")
        #expect(first.stderr.contains("\n26 ok in "), "\(first.stderr)")
        try expectPhotosOfALocalRun(in: driver, output: "cluster")
        // No job directory on the driver's side; the workers' store is their own.
        #expect(!FileManager.default.fileExists(atPath: driverStore.appendingPathComponent("jobs").path))
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: workerStore.path)).isEmpty)
        let completions = server.requests().filter {
            $0.method == "GET" && $0.path.hasPrefix("/cache/ac/") && $0.status == 200
        }
        #expect(completions.count >= jobs, "\(completions.count) completion records read")

        // Another driver with an empty store: every result is a remote hit, no job is submitted.
        let second = try await runThroughCache(
            arguments + ["--output", "again"], in: driver, server: server, store: try fixtureDirectory(),
            workerStore: workerStore)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            line("slurm: 0 jobs", in: second.stderr)?.hasPrefix("slurm: 0 jobs submitted, ") == true, "\(second.stderr)"
        )
        #expect(second.stderr.contains("\n26 cached in "), "\(second.stderr)")
        try expectPhotosOfALocalRun(in: driver, output: "again")
    }

    @Test func aFailureOnANodeWithoutASharedStoreIsReportedFromItsCompletionRecord() async throws {
        let server = try NginxServer()
        let (driver, driverStore) = try workspace()
        try write(
            """
            version: 1
            name: failing
            operations:
              broken: {op: exec, command: [sh, -c, "exit 3"]}
              after: {op: save, needs: broken, path: after.txt}
            """, to: "failing.yaml", in: driver)
        let result = try await runThroughCache(
            ["failing.yaml", "--output", "out"], in: driver, server: server, store: driverStore,
            workerStore: try fixtureDirectory())
        #expect(result.status == 1)
        #expect(
            line("broken ", in: result.stderr) == "broken failed T T T 'sh' exited with status 3 (slurm job N)",
            "\(result.stderr)")
        #expect(line("after ", in: result.stderr) == "after skipped - - - 'broken' failed")
        #expect(
            result.stderr.contains(
                /\nslurm: 1 job submitted, .*; logs in \/tmp\/taskgraph-[0-9a-f]+-\* on the nodes\n/),
            "\(result.stderr)")
    }
}
