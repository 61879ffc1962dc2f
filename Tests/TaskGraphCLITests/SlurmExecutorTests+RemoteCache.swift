import Foundation
import Testing

/// `run --executor slurm` without a shared store (docs/cluster.md, "Without a shared file
/// system"): jobs, inputs, results and completion records go through a real nginx; the workers
/// keep a store of their own (Slurm's `--export` gives them another `TASKGRAPH_CACHE_DIR`).
extension SlurmExecutorTests {
    @Test func withARemoteCacheAndNoSharedStoreEverythingGoesThroughTheCache() async throws {
        let server = try NginxServer()
        let (driver, driverStore) = try workspace(copying: ["photos.yaml", "photos"])
        let workerStore = try fixtureDirectory()
        let local = try await TaskGraphProcess.run(["run", "photos.yaml", "--output", "local", "--no-progress"], in: driver)
        #expect(local.status == 0, "\(local.stderr)")
        func run(store: URL) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await TaskGraphProcess.run(
                ["run", "photos.yaml", "--output", "cluster", "--executor", "slurm", "--no-progress", "--remote-cache", server.url("cache")],
                in: driver,
                environment: SlurmCluster.environment.merging([
                    "TASKGRAPH_CACHE_DIR": store.path, "SBATCH_EXPORT": "ALL,TASKGRAPH_CACHE_DIR=\(workerStore.path)",
                ]) { $1 })
        }
        let first = try await run(store: driverStore)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains(/slurm: run taskgraph-[0-9a-f]+, jobs through the remote cache\n/), "\(first.stderr)")
        #expect(line("slurm: 26 jobs", in: first.stderr)?.hasPrefix("slurm: 26 jobs submitted, ") == true, "\(first.stderr)")
        #expect(first.stderr.contains("\n26 ok in "), "\(first.stderr)")
        for name in Self.photos {
            let expected = try Data(contentsOf: driver.appendingPathComponent("local/\(name)"))
            #expect(try Data(contentsOf: driver.appendingPathComponent("cluster/\(name)")) == expected, "\(name)")
        }
        // No job directory on the driver's side; the workers' store is their own.
        #expect(!FileManager.default.fileExists(atPath: driverStore.appendingPathComponent("jobs").path))
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: workerStore.path)).isEmpty)
        let completions = server.requests().filter { $0.method == "GET" && $0.path.hasPrefix("/cache/ac/") && $0.status == 200 }
        #expect(completions.count >= 26, "\(completions.count) completion records read")

        // Another driver with an empty store: every result is a remote hit, no job is submitted.
        let second = try await run(store: try fixtureDirectory())
        #expect(second.status == 0, "\(second.stderr)")
        #expect(line("slurm: 0 jobs", in: second.stderr)?.hasPrefix("slurm: 0 jobs submitted, ") == true, "\(second.stderr)")
        #expect(second.stderr.contains("\n26 cached in "), "\(second.stderr)")
    }
}
