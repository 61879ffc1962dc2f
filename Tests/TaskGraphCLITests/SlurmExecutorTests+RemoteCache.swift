import Foundation
import TaskGraphCore
import Testing

/// `run --executor slurm` without a shared store (docs/cluster.md, "Without a shared file
/// system"): jobs, inputs, results and completion records go through a real nginx; the workers
/// keep a store of their own (Slurm's `--export` gives them another `TASKGRAPH_CACHE_DIR`).
extension SlurmExecutorTests {
    /// `taskgraph run arguments… --executor slurm --remote-cache …` in `driver`, with the store
    /// `store`, through the server's location `cache`; its jobs' workers use `workerStore`, and
    /// get `workerVariables` on top of the driver's environment (`environment`).
    private func runThroughCache(
        _ arguments: [String], in driver: URL, server: NginxServer, store: URL, workerStore: URL,
        cache: String = "cache", environment: [String: String] = [:], workerVariables: String = ""
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await TaskGraphProcess.run(
            ["run"] + arguments + ["--executor", "slurm", "--no-progress", "--remote-cache", server.url(cache)],
            in: driver,
            environment: SlurmCluster.environment.merging(environment) { $1 }.merging([
                "TASKGRAPH_CACHE_DIR": store.path,
                "SBATCH_EXPORT": "ALL,TASKGRAPH_CACHE_DIR=\(workerStore.path)" + workerVariables,
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

    @Test func aJobRunsOnItsNodeFromTheFilesItCarriesAndWhatItWritesIsRestoredHere() async throws {
        let server = try NginxServer()
        let (driver, driverStore) = try workspace()
        try write(
            """
            version: 1
            name: carried
            operations:
              count:
                op: exec
                command: [sh, -c, 'pwd > where.txt; ./tool.sh data.txt > counted.txt']
                inputs: [data.txt, tool.sh]
                outputs: [counted.txt, where.txt]
              greeting: {op: load, path: data.txt}
              keep: {op: save, needs: greeting, path: greeting.txt}
            """, to: "carried.yaml", in: driver)
        try write("twelve bytes", to: "data.txt", in: driver)
        try write("#!/bin/sh\nwc -c < \"$1\" | tr -d ' '\n", to: "tool.sh", in: driver)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: driver.appendingPathComponent("tool.sh").path)
        let result = try await runThroughCache(
            ["carried.yaml", "--output", "out"], in: driver, server: server, store: driverStore,
            workerStore: try fixtureDirectory())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\n3 ok in "), "\(result.stderr)")
        // The program ran in a directory of the worker's, since removed; what it wrote is here.
        let ranIn = try String(contentsOf: driver.appendingPathComponent("where.txt"), encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        #expect(ranIn.hasPrefix("/") && ranIn.hasSuffix(driver.path) && ranIn != driver.path, "\(ranIn)")
        #expect(!FileManager.default.fileExists(atPath: ranIn))
        #expect(try String(contentsOf: driver.appendingPathComponent("counted.txt"), encoding: .utf8) == "12\n")
        #expect(try Data(contentsOf: driver.appendingPathComponent("out/greeting.txt")) == Data("twelve bytes".utf8))
        // The files travelled through the cache: the worker's store had neither.
        let data = ContentDigest.sha256(of: Data("twelve bytes".utf8))
        #expect(server.requests().contains { $0.method == "GET" && $0.path == "/cache/cas/" + data.hex })

        // Another driver with an empty store reuses all three, naming this checkout's paths.
        try FileManager.default.removeItem(at: driver.appendingPathComponent("counted.txt"))
        let again = try await runThroughCache(
            ["carried.yaml", "--output", "out"], in: driver, server: server, store: try fixtureDirectory(),
            workerStore: try fixtureDirectory())
        #expect(again.stderr.contains("\n3 cached in "), "\(again.stderr)")
        #expect(try String(contentsOf: driver.appendingPathComponent("counted.txt"), encoding: .utf8) == "12\n")
    }

    @Test func aClusterRunThroughASignedCacheThatWantsATokenGivesBothToItsWorkersUnseen() async throws {
        let server = try NginxServer()
        let (driver, driverStore) = try workspace(copying: ["photos.yaml", "photos"])
        let local = try await TaskGraphProcess.run(
            ["run", "photos.yaml", "--output", "local", "--no-progress"], in: driver)
        #expect(local.status == 0, "\(local.stderr)")
        let result = try await runThroughCache(
            [
                "photos.yaml", "--output", "cluster", "--events", "events.jsonl", "--remote-header",
                "Authorization: Bearer secret", "--remote-cache-key-env", "CLUSTER_KEY",
            ], in: driver, server: server, store: driverStore, workerStore: try fixtureDirectory(), cache: "private",
            environment: ["CLUSTER_KEY": "the cluster's key"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\n26 ok in "), "\(result.stderr)")
        try expectPhotosOfALocalRun(in: driver, output: "cluster")
        // Every request had the token; nothing the run wrote or put shows it.
        let requests = server.requests()
        #expect(requests.filter { $0.status == 401 }.isEmpty)
        #expect(requests.filter { $0.method == "PUT" && $0.path.hasPrefix("/private/ac/") }.count >= 26)
        let events = try String(contentsOf: driver.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(!events.contains("Bearer") && !result.stderr.contains("Bearer"))
        let stored = server.stored("private")
        let entries = try FileManager.default.subpathsOfDirectory(atPath: stored.path)
        for entry in entries where entry.contains("/") {
            let data = try Data(contentsOf: stored.appendingPathComponent(entry))
            #expect(data.range(of: Data("Bearer".utf8)) == nil, "\(entry)")
            // Jobs, completions and action records are signed (blobs of results are not).
            if entry.hasPrefix("ac/") || data.range(of: Data("\"setup\"".utf8)) != nil {
                #expect(data.starts(with: Data("TGRS".utf8)), "\(entry)")
            }
        }
    }

    @Test func aJobSignedWithAnotherKeyIsRefusedOnItsNode() async throws {
        let server = try NginxServer()
        let (driver, driverStore) = try workspace()
        try write(
            """
            version: 1
            name: one
            operations:
              greet: {op: exec, command: [sh, -c, "echo hello"], cache: false}
            """, to: "one.yaml", in: driver)
        let result = try await runThroughCache(
            ["one.yaml", "--output", "out", "--remote-cache-key-env", "CLUSTER_KEY"], in: driver, server: server,
            store: driverStore, workerStore: try fixtureDirectory(), environment: ["CLUSTER_KEY": "the driver's key"],
            workerVariables: ",CLUSTER_KEY=another-key")
        #expect(result.status == 1)
        // The worker's completion is signed with its key, which the driver does not trust either.
        #expect(
            line("greet ", in: result.stderr)
                == "greet failed T T T slurm job N: unreadable completion record: the completion record is not "
                + "signed with the remote cache's key", "\(result.stderr)")
    }

    @Test func aFailureOnANodeWithoutASharedStoreIsReportedFromItsCompletionRecord() async throws {
        let server = try NginxServer()
        let (driver, driverStore) = try workspace()
        try write(
            """
            version: 1
            name: failing
            operations:
              broken: {op: exec, command: [sh, -c, "echo no space left >&2; exit 3"]}
              after: {op: save, needs: broken, path: after.txt}
            """, to: "failing.yaml", in: driver)
        let result = try await runThroughCache(
            ["failing.yaml", "--output", "out"], in: driver, server: server, store: driverStore,
            workerStore: try fixtureDirectory())
        #expect(result.status == 1)
        // The program's standard error comes with the failure, not from the node's log.
        #expect(
            line("broken ", in: result.stderr)
                == "broken failed T T T 'sh' exited with status 3: no space left (slurm job N)",
            "\(result.stderr)")
        #expect(line("after ", in: result.stderr) == "after skipped - - - 'broken' failed")
        #expect(
            result.stderr.contains(
                /\nslurm: 1 job submitted, .*; logs in \/tmp\/taskgraph-[0-9a-f]+-\* on the nodes\n/),
            "\(result.stderr)")
    }
}
