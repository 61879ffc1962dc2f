import Foundation
import Testing

/// What a run's resources cost the real binary: running children hold no thread, and blocking
/// work started beside them does not wait for them.
@Suite struct RunResourcesTests {
    /// The number of `sleep 2` children running at once.
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
                command: [/bin/sleep, "2"]
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
            ["run", "crowd.yaml", "--jobs", "\(Self.sleepers)", "--output", "out", "--no-progress"],
            in: directory)

        var mostThreads = 0
        var childrenWhenCopied: Int?
        let deadline = ContinuousClock.now + .seconds(120)  // hang guard
        while process.isRunning, ContinuousClock.now < deadline {
            mostThreads = max(mostThreads, Self.threadCount(of: process.pid) ?? 0)
            if childrenWhenCopied == nil, FileManager.default.fileExists(atPath: copied.path) {
                childrenWhenCopied = Self.childCount(of: process.pid)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let status = await process.waitForExit()

        #expect(status == 0, "\(process.standardError)")
        // The chain finished while sleeps were still running.
        let children = try #require(childrenWhenCopied, "copied.bin appeared only after the run")
        #expect(children > 0)
        #expect(try Data(contentsOf: copied) == input)
        #expect(mostThreads > 0)
        #expect(mostThreads <= Self.threadBound)
        #expect(process.standardError.contains("\(Self.sleepers + 2) ok"))
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
