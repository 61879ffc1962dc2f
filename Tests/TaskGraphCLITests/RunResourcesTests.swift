import Foundation
import Testing

/// What a run's resources cost the real binary: running children hold no thread, and blocking
/// work started beside them does not wait for them.
@Suite struct RunResourcesTests {
    /// The number of `sleep 10` children running at once. Ten seconds: at the suite's busy start,
    /// spawning a thousand children and the chain beside them took longer than two.
    private static let sleepers = 1_000

    /// A pipeline of `sleepers` `exec` children beside a `load` → `save` chain in a pool of 2.
    private static var pipeline: String {
        let items = (0..<sleepers).map { "s\($0)" }.joined(separator: ", ")
        return """
            version: 1
            name: crowd
            pools:
              io: 2
            vars:
              sleepers: [\(items)]
            operations:
              nap:
                foreach: ${sleepers}
                op: exec
                command: [/bin/sleep, "10"]
              read:
                op: load
                pool: io
                path: input.bin
              copy:
                op: save
                pool: io
                needs: read
                path: copied.bin
            """
    }

    /// The most threads the process may have: its blocking-IO pool (two per core, plus one per
    /// worker of the `io` pool), the cooperative pool (one per core), and a few more (main,
    /// the reaper, Dispatch's signal source and manager threads, Foundation's). Before runs
    /// owned their resources, each running child held a thread of its own, up to 64.
    private static var threadBound: Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return (2 * cores + 2) + cores + 8
    }

    @Test func thousandRunningChildrenHoldNoThreadsAndDoNotDelayOtherWork() async throws {
        let directory = try fixtureDirectory()
        try write(Self.pipeline, to: "crowd.yaml", in: directory)
        let input = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        try input.write(to: directory.appendingPathComponent("input.bin"))
        let copied = directory.appendingPathComponent("out/copied.bin")
        let process = try TaskGraphProcess(
            // --no-cache: the sleeps are identical operations, so a store would reuse the
            // result of the first to finish for every later one; this test wants them all running.
            ["run", "crowd.yaml", "--jobs", "\(Self.sleepers)", "--output", "out", "--no-progress", "--no-cache"],
            in: directory)

        let observation = await Self.observe(process, until: copied)
        let status = await process.waitForExit()

        #expect(status == 0, "\(process.standardError)")
        // The chain finished while sleeps were still running.
        let children = try #require(observation.childrenWhenCopied, "copied.bin appeared only after the run")
        #expect(children > 0)
        #expect(try Data(contentsOf: copied) == input)
        #expect(observation.mostThreads > 0)
        #expect(observation.mostThreads <= Self.threadBound)
        #expect(process.standardError.contains("\(Self.sleepers + 2) ok"))
    }

    /// Every running child holds three descriptors (two pipes and a pidfd): under a soft limit
    /// of 256 open files, 200 at once fit only because taskgraph raises it to the hard limit.
    @Test func manyChildrenFitUnderALowSoftOpenFileLimit() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            vars:
              items: [\((0..<200).map { "i\($0)" }.joined(separator: ", "))]
            operations:
              nap: {foreach: "${items}", op: exec, command: [/bin/sleep, "1"]}
            """, to: "many.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            [
                "-c", "ulimit -Sn 256 && exec \"$0\" run many.yaml --jobs 200 --output out --no-progress --no-cache",
                TaskGraphProcess.binary.path,
            ],
            in: directory, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("200 ok"))
    }

    /// What the test saw of the running process.
    private struct Observation: Sendable {
        /// The most threads it had at once.
        var mostThreads = 0
        /// How many children it had when `copied` first existed; nil if only after it exited.
        var childrenWhenCopied: Int?
    }

    /// Samples `process` every 20 ms until it exits, on a thread of its own: the cooperative
    /// pool may be held for seconds by CPU-heavy tests running in parallel, which would make the
    /// samples miss what happens meanwhile.
    private static func observe(_ process: TaskGraphProcess, until copied: URL) async -> Observation {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var observation = Observation()
                let deadline = ContinuousClock.now + .seconds(120) // hang guard
                while process.isRunning, ContinuousClock.now < deadline {
                    observation.mostThreads = max(observation.mostThreads, threadCount(of: process.pid) ?? 0)
                    if observation.childrenWhenCopied == nil, FileManager.default.fileExists(atPath: copied.path) {
                        observation.childrenWhenCopied = childCount(of: process.pid)
                    }
                    usleep(20_000)
                }
                continuation.resume(returning: observation)
            }
        }
    }

    /// The `Threads:` line of /proc/PID/status.
    private static func threadCount(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            .flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) }
    }

    /// The number of children of `pid`, from the `children` file of each of its threads.
    private static func childCount(of pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { count, task in
            let children = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)
            return count + (children?.split(separator: " ").count ?? 0)
        }
    }
}
