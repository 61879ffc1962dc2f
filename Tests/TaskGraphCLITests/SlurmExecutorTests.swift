import Foundation
import Testing

/// `run --executor slurm` on a real single-node cluster (scripts/slurm-cluster.sh). The driver
/// runs in one directory, the jobs in the run's job directory, the store is a third place.
/// One test at a time: they share the cluster's two CPUs.
@Suite(.serialized, .slurmCluster) struct SlurmExecutorTests {
    static let photos =
        ["mountains", "sunset", "seedling"].flatMap { ["\($0).jpg", "thumbnails/\($0).jpg"] }
        + ["contact-sheet.jpg"]

    /// A driver directory holding `files` from the repository's `pipelines/`, and a store
    /// directory elsewhere.
    func workspace(copying files: [String] = []) throws -> (driver: URL, store: URL) {
        let driver = try fixtureDirectory()
        for name in files {
            try FileManager.default.copyItem(
                at: SlurmCluster.repository.appendingPathComponent("pipelines").appendingPathComponent(name),
                to: driver.appendingPathComponent(name))
        }
        return (driver, try fixtureDirectory())
    }

    func run(_ arguments: [String], in directory: URL, store: URL) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try await TaskGraphProcess.run(
            ["run"] + arguments + ["--executor", "slurm", "--store", store.path, "--no-progress"], in: directory,
            environment: SlurmCluster.environment)
    }

    /// `text` with job ids and times replaced (`slurm job N`, `T`) and runs of spaces made one,
    /// for exact comparisons.
    func normalized(_ text: String) -> String {
        text.replacing(/slurm job \d+/, with: "slurm job N").replacing(
            /\ +(\d+h)?(\d+m)?\d+(\.\d+)?(ms|s)(?=\ )/, with: " T"
        )
        .replacing(/\ +/, with: " ")
    }

    /// The line of `stderr` that starts with `prefix`, normalized.
    func line(_ prefix: String, in stderr: String) -> String? {
        stderr.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { normalized(String($0)) }
    }

    /// The run name the driver announced.
    private func runName(in stderr: String) -> String? {
        stderr.firstMatch(of: /slurm: run (taskgraph-[0-9a-f]+),/).map { String($0.1) }
    }

    /// The run's jobs `squeue` lists as queued, running or completing.
    private func activeJobs(of run: String) async throws -> String {
        try await SlurmCluster.command(["squeue", "--noheader", "--array", "--name=\(run)", "--format=%i %T"]).stdout
    }

    @Test func photosOnTheClusterAreByteIdenticalToALocalRunAndASecondRunSubmitsNoJob() async throws {
        let (driver, store) = try workspace(copying: ["photos.yaml", "photos"])
        let local = try await TaskGraphProcess.run(
            ["run", "photos.yaml", "--output", "local", "--no-progress"], in: driver)
        #expect(local.status == 0, "\(local.stderr)")
        let first = try await run(["photos.yaml", "--output", "cluster"], in: driver, store: store)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            line("slurm: 26 jobs", in: first.stderr)?.hasPrefix("slurm: 26 jobs submitted, ") == true, "\(first.stderr)"
        )
        #expect(first.stderr.contains("\n26 ok in "))
        for name in Self.photos {
            let expected = try Data(contentsOf: driver.appendingPathComponent("local/\(name)"))
            #expect(try Data(contentsOf: driver.appendingPathComponent("cluster/\(name)")) == expected, "\(name)")
        }
        let second = try await run(["photos.yaml", "--output", "cluster"], in: driver, store: store)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            line("slurm: 0 jobs", in: second.stderr)?.hasPrefix(
                "slurm: 0 jobs submitted, 0 queue queries (run taskgraph-") == true,
            "\(second.stderr)")
        #expect(second.stderr.contains("\n26 cached in "))
    }

    @Test func instancesOfAFanOutFromAResultRunAsJobsOfTheirOwn() async throws {
        let (driver, store) = try workspace()
        try write(
            """
            version: 1
            name: fan-out
            operations:
              index: {op: exec, command: [printf, 'a\\nb\\n']}
              get: {foreach: {from: index}, op: exec, command: [sh, -c, "echo ${item}"]}
              save: {foreach: {from: index}, op: save, needs: get, path: "${item}.txt"}
              all: {op: group, needs: save}
            """, to: "fan.yaml", in: driver)
        // With --fuse: get[a] -> save[a] would be one job had they been planned when the run
        // started; added during the run, each instance is a job of its own.
        let result = try await run(["fan.yaml", "--output", "out", "--fuse"], in: driver, store: store)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            line("slurm: 5 jobs", in: result.stderr)?.hasPrefix("slurm: 5 jobs submitted, ") == true, "\(result.stderr)"
        )
        #expect(
            line("get[b] ", in: result.stderr) == "get[b] ok T T T exited with status 0, 2 B of output",
            "\(result.stderr)")
        #expect(line("save[a] ", in: result.stderr)?.hasPrefix("save[a] ok T T T ") == true, "\(result.stderr)")
        #expect(result.stderr.contains("\n7 ok in "), "\(result.stderr)")
        #expect(try String(contentsOf: driver.appendingPathComponent("out/b.txt"), encoding: .utf8) == "b\n")
    }

    @Test func failedJobsAreReportedWithSlurmsReasonAndTheirDependentsSkipped() async throws {
        let (driver, store) = try workspace()
        try write(
            """
            version: 1
            name: failing
            operations:
              hog:
                op: exec
                memory: 100M
                command: [python3, -c, "x = bytearray(600 * 1024 * 1024); import time; time.sleep(30)"]
              slow:
                op: exec
                time: 1s
                command: [sleep, "300"]
              broken:
                op: exec
                command: [sh, -c, "exit 3"]
              after:
                op: save
                needs: broken
                path: after.txt

            """, to: "failing.yaml", in: driver)
        let result = try await run(
            ["failing.yaml", "--output", "out", "--events", "events.jsonl"], in: driver, store: store)
        #expect(result.status == 1)
        // The summary's columns: time, queue wait, run time.
        #expect(line("broken ", in: result.stderr) == "broken failed T T T 'sh' exited with status 3 (slurm job N)")
        #expect(line("after ", in: result.stderr) == "after skipped - - - 'broken' failed")
        #expect(
            line("slow ", in: result.stderr)?.hasPrefix(
                "slow failed T T T slurm job N ended TIMEOUT (TimeLimit); log: slurmstepd-localhost: error: *** JOB ")
                == true,
            "\(result.stderr)")
        #expect(line("slow ", in: result.stderr)?.hasSuffix(" DUE TO TIME LIMIT ***") == true, "\(result.stderr)")
        #expect(
            line("hog ", in: result.stderr)?.hasPrefix(
                "hog failed T T T slurm job N ended FAILED (JobLaunchFailure); log: ") == true,
            "\(result.stderr)")
        #expect(
            line("3 remote jobs: ", in: result.stderr)?.hasPrefix("3 remote jobs: queue wait T in all (longest ")
                == true, "\(result.stderr)")
        // The events carry each job's id, state and reason; its end, its times.
        let events = try String(contentsOf: driver.appendingPathComponent("events.jsonl"), encoding: .utf8)
        let slow = events.split(separator: "\n").filter { $0.contains("\"id\":\"slow\"") && $0.contains("\"job\":") }
            .map { normalized(String($0[$0.range(of: "\"job\":")!.lowerBound...])).replacing(/\d+(\.\d+)?/, with: "D") }
        #expect(slow.first == "\"job\":{\"id\":\"D\",\"state\":\"SUBMITTED\"}}", "\(slow)")
        #expect(slow.contains("\"job\":{\"id\":\"D\",\"state\":\"RUNNING\"}}"), "\(slow)")
        #expect(
            slow.last
                == "\"job\":{\"id\":\"D\",\"state\":\"TIMEOUT\",\"reason\":\"TimeLimit\",\"queue_wait\":D,"
                + "\"run_time\":D}}",
            "\(slow)")
        #expect(line("hog ", in: result.stderr)?.contains("Exceeded job memory limit") == true, "\(result.stderr)")
        #expect(result.stderr.contains("\n3 failed, 1 skipped in "))
        #expect(!FileManager.default.fileExists(atPath: driver.appendingPathComponent("out/after.txt").path))
    }

    @Test func ctrlCCancelsEveryJobOfTheRunAndDiesBySIGINT() async throws {
        let (driver, store) = try workspace()
        try write(
            """
            version: 1
            name: sleepy
            operations:
              nap:
                foreach: [a, b, c]
                op: exec
                command: [sleep, "300"]

            """, to: "sleepy.yaml", in: driver)
        let process = try TaskGraphProcess(
            ["run", "sleepy.yaml", "--executor", "slurm", "--store", store.path, "--no-progress"], in: driver,
            environment: SlurmCluster.environment)
        while process.isRunning, process.standardError.components(separatedBy: " submitted\n").count < 4 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let run = try #require(runName(in: process.standardError))
        #expect(try await activeJobs(of: run).split(separator: "\n").count == 3)
        process.send(SIGINT)
        #expect(await process.waitForTermination() == .killed(by: SIGINT))
        // A job scancel ended stays in squeue while Slurm kills its processes (COMPLETING); the
        // jobs sleep for 300 s, so any still listed after 10 s were never cancelled.
        var active = try await activeJobs(of: run)
        for _ in 0..<100 where !active.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            active = try await activeJobs(of: run)
        }
        #expect(active == "")
        #expect(process.standardError.contains("\ncancelled after "))
        #expect(process.standardError.contains(": 3 cancelled\n"), "\(process.standardError)")
    }

    @Test func afterTheDriverIsKilledARerunReusesWhatItsJobsFinished() async throws {
        let (driver, store) = try workspace()
        try write(
            """
            version: 1
            name: chain
            operations:
              first:
                op: exec
                command: [sh, -c, "sleep 2; echo first"]
                cache: true
              second:
                op: exec
                needs: first
                command: [sh, -c, "sleep 300"]
                cache: false

            """, to: "chain.yaml", in: driver)
        let process = try TaskGraphProcess(
            ["run", "chain.yaml", "--executor", "slurm", "--store", store.path, "--no-progress"], in: driver,
            environment: SlurmCluster.environment)
        while process.isRunning, !process.standardError.contains(" RUNNING\n") {
            try await Task.sleep(for: .milliseconds(50))
        }
        let run = try #require(runName(in: process.standardError))
        process.send(SIGKILL)
        #expect(await process.waitForTermination() == .killed(by: SIGKILL))
        // The job goes on without its driver and records its result in the store.
        while try await activeJobs(of: run) != "" { try await Task.sleep(for: .milliseconds(100)) }
        try write(
            """
            version: 1
            name: chain
            operations:
              first:
                op: exec
                command: [sh, -c, "sleep 2; echo first"]
                cache: true
              second:
                op: exec
                needs: first
                command: [sh, -c, "echo second"]

            """, to: "chain.yaml", in: driver)
        let rerun = try await self.run(["chain.yaml", "--explain"], in: driver, store: store)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(
            rerun.stdout == """
                first: cached
                second: run: not cacheable: exec declares no inputs or outputs; set cache: true to reuse it

                """)
        #expect(
            line("slurm: 1 job", in: rerun.stderr)?.hasPrefix("slurm: 1 job submitted, ") == true, "\(rerun.stderr)")
    }
}
