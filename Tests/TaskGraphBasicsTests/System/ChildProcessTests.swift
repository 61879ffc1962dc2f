import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphBasics

/// Tests for `ChildProcesses` and its reaper, running real processes.
struct ChildProcessTests {
    /// The environment most tests give their children.
    private static let environment = ["PATH": "/usr/bin:/bin"]

    /// The resources of this test's children.
    private let resources = RunResources()

    /// Runs `arguments` with `environment` unless told otherwise.
    private func run(
        _ arguments: [String], environment: [String: String] = environment,
        workingDirectory: String? = nil, outputLimit: Int = 1 << 20, errorTailLimit: Int = 1 << 10
    ) async throws -> ProcessResult {
        try await resources.childProcesses.run(
            arguments: arguments, environment: environment, workingDirectory: workingDirectory,
            outputLimit: outputLimit, errorTailLimit: errorTailLimit)
    }

    @Test func capturesStandardOutput() async throws {
        let result = try await run(["echo", "hello"])
        #expect(result.status == .exited(0))
        #expect(result.standardOutput == Array("hello\n".utf8))
        #expect(!result.standardOutputTruncated)
        #expect(result.standardErrorTail.isEmpty)
    }

    @Test func reportsExitCodeAndStandardError() async throws {
        let result = try await run(["sh", "-c", "echo oops >&2; exit 3"])
        #expect(result.status == .exited(3))
        #expect(result.standardErrorTail == Array("oops\n".utf8))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func keepsOnlyTheTailOfStandardError() async throws {
        let short = try await run(["sh", "-c", "printf 0123456789 >&2"], errorTailLimit: 4)
        #expect(short.standardErrorTail == Array("6789".utf8))
        let long = try await run(
            ["sh", "-c", "head -c 300000 /dev/zero >&2; printf END >&2"], errorTailLimit: 3)
        #expect(long.standardErrorTail == Array("END".utf8))
    }

    @Test func truncatesStandardOutputAtTheLimit() async throws {
        let long = try await run(["head", "-c", "100000", "/dev/zero"], outputLimit: 1000)
        #expect(long.status == .exited(0))
        #expect(long.standardOutput == [UInt8](repeating: 0, count: 1000))
        #expect(long.standardOutputTruncated)
        let exact = try await run(["printf", "abc"], outputLimit: 3)
        #expect(exact.standardOutput == Array("abc".utf8))
        #expect(!exact.standardOutputTruncated)
    }

    @Test func drainsLargeOutputOnBothStreams() async throws {
        let result = try await run(
            ["sh", "-c", "head -c 1000000 /dev/zero; head -c 1000000 /dev/zero >&2"],
            outputLimit: 2_000_000, errorTailLimit: 10)
        #expect(result.status == .exited(0))
        #expect(result.standardOutput.count == 1_000_000)
        #expect(result.standardErrorTail.count == 10)
    }

    @Test func passesExactlyTheGivenEnvironment() async throws {
        let echoed = try await run(
            ["sh", "-c", "echo $FOO"], environment: ["PATH": "/usr/bin:/bin", "FOO": "bar"])
        #expect(echoed.standardOutput == Array("bar\n".utf8))
        let listed = try await run(["/usr/bin/env"], environment: ["A": "1"])
        #expect(listed.standardOutput == Array("A=1\n".utf8))
    }

    @Test func looksProgramsUpOnTheChildsPath() async throws {
        // A link, not a written script: a file open for writing while another test forks could
        // fail to execute with ETXTBSY.
        try await withTemporaryDirectory { directory in
            try await BlockingIO.run {
                try FileManager.default.createSymbolicLink(
                    atPath: directory + "/greet-taskgraph", withDestinationPath: "/bin/echo")
            }
            let result = try await run(
                ["greet-taskgraph", "hi"], environment: ["PATH": "/nonexistent::" + directory])
            #expect(result.standardOutput == Array("hi\n".utf8))
        }
        await #expect(throws: ChildProcessError.programNotFound("sh")) {
            try await run(["sh", "-c", "true"], environment: ["PATH": "/nonexistent"])
        }
    }

    @Test func honoursTheWorkingDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let result = try await run(["sh", "-c", "pwd"], workingDirectory: directory)
            #expect(result.standardOutput == Array((directory + "\n").utf8))
        }
    }

    @Test func reportsAProgramMissingFromPath() async throws {
        let error = await #expect(throws: ChildProcessError.self) {
            try await run(["frobnicate"])
        }
        #expect(error == .programNotFound("frobnicate"))
        #expect(error?.description == "program 'frobnicate' not found on PATH")
    }

    @Test func reportsAMissingProgramPath() async throws {
        let error = await #expect(throws: ChildProcessError.self) {
            try await run(["/nonexistent/frobnicate"])
        }
        #expect(error == .programNotFound("/nonexistent/frobnicate"))
        #expect(error?.description == "program '/nonexistent/frobnicate' does not exist")
    }

    @Test func reportsAMissingWorkingDirectory() async throws {
        let error = await #expect(throws: ChildProcessError.self) {
            try await run(["echo"], workingDirectory: "/nope")
        }
        #expect(error == .workingDirectoryMissing("/nope"))
        #expect(error?.description == "working directory '/nope' does not exist")
    }

    @Test func saysWhatAProgramThatIsADirectoryAndAWorkingDirectoryThatIsAFileAre() async throws {
        let directory = await #expect(throws: ChildProcessError.self) {
            try await run(["/tmp"])
        }
        #expect(directory?.description == "program '/tmp' is a directory, not a program")
        let file = await #expect(throws: ChildProcessError.self) {
            try await run(["echo"], workingDirectory: "/etc/passwd")
        }
        #expect(file?.description == "working directory '/etc/passwd' is not a directory")
    }

    @Test func reportsAProgramThatCannotBeExecuted() async throws {
        let path = "/etc/passwd"
        let error = await #expect(throws: ChildProcessError.self) {
            try await run([path])
        }
        #expect(error == .spawnFailed(path, "Permission denied"))
        #expect(error?.description == "cannot start '\(path)': Permission denied")
    }

    @Test func rejectsAnEmptyCommand() async throws {
        let error = await #expect(throws: ChildProcessError.self) {
            try await run([])
        }
        #expect(error == .emptyCommand)
        #expect(error?.description == "cannot start an empty command")
    }

    @Test func reportsDeathBySignal() async throws {
        let result = try await run(["sh", "-c", "kill -9 $$"])
        #expect(result.status == .signalled(SIGKILL))
    }

    @Test func givesTheChildAnEmptyStandardInput() async throws {
        let result = try await run(["cat"])
        #expect(result.status == .exited(0))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func restoresDefaultDispositionsOfSignalsTheParentIgnores() async throws {
        // Only SIGHUP: nothing else in the test process cares about it.
        let previous = signal(SIGHUP, SIG_IGN)
        defer { signal(SIGHUP, previous) }
        let result = try await run(["sh", "-c", "kill -HUP $$; echo survived"])
        #expect(result.status == .signalled(SIGHUP))
    }

    @Test func startsTheChildWithNoSignalBlockedAndNoneOfThoseTheParentTrapsIgnored() async throws {
        let result = try await run(["cat", "/proc/self/status"])
        let masks = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n")
            .reduce(into: [String: UInt64]()) { masks, line in
                let fields = line.split(separator: ":")
                guard fields.count == 2, fields[0].hasPrefix("Sig") else { return }
                masks[String(fields[0])] = UInt64(fields[1].trimmingCharacters(in: .whitespaces), radix: 16)
            }
        #expect(masks["SigBlk"] == 0)
        let trapped = [SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP, SIGCHLD, SIGTSTP, SIGCONT, SIGUSR1]
        #expect(trapped.filter { (masks["SigIgn"] ?? ~0) & (1 << UInt64($0 - 1)) != 0 } == [])
    }

    @Test func killsTheGroupWhenTheLeaderExits() async throws {
        let start = ContinuousClock.now
        let result = try await run(["sh", "-c", "sleep 300 & echo $!"])
        #expect(ContinuousClock.now - start < .seconds(120)) // hang guard: the background sleep lasts 300 s
        #expect(result.status == .exited(0))
        let grandchild = try #require(
            pid_t(
                String(decoding: result.standardOutput, as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await processIsGone(grandchild))
    }

    #if os(Linux) // setsid(1) is part of util-linux
        @Test func stopsReadingSoonAfterTheLeaderExitsWhenAnEscapedProcessHoldsThePipes() async throws {
            let start = ContinuousClock.now
            // The leader waits until the background process has left its process group.
            let script = """
                setsid sleep 300 & pid=$!
                until [ "$(cut -d' ' -f5 /proc/$pid/stat)" != $$ ]; do sleep 0.01; done
                echo $pid
                """
            let result = try await run(["sh", "-c", script])
            let elapsed = ContinuousClock.now - start
            let escaped = try #require(
                pid_t(
                    String(decoding: result.standardOutput, as: UTF8.self)
                        .trimmingCharacters(in: .whitespacesAndNewlines)))
            kill(escaped, SIGKILL)
            #expect(result.status == .exited(0))
            #expect(elapsed > .milliseconds(500))
            #expect(elapsed < .seconds(120)) // hang guard: the escaped sleep lasts 300 s
        }
    #endif

    @Test func cancellationTerminatesTheWholeGroup() async throws {
        try await withTemporaryDirectory { directory in
            let pidFile = directory + "/pids"
            let task = Task {
                try await run(["sh", "-c", "sleep 300 & echo $$ $! > \(pidFile); sleep 300"])
            }
            let pids = try await waitForPids(in: pidFile)
            try await Task.sleep(for: .milliseconds(200))
            let cancelled = ContinuousClock.now
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(ContinuousClock.now - cancelled < .seconds(120)) // hang guard: the sleeps last 300 s
            #expect(pids.count == 2)
            for pid in pids {
                #expect(await processIsGone(pid))
            }
        }
    }

    @Test func aTaskCancelledBeforeItsChildIsSpawnedSpawnsNone() async throws {
        try await withTemporaryDirectory { directory in
            let marker = directory + "/started"
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await run(["touch", marker])
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            await resources.childProcesses.shutDown()
            let started = try await BlockingIO.run { access(marker, F_OK) == 0 }
            #expect(!started)
        }
    }

    @Test func killsAChildThatIgnoresSIGTERMAfterTheGracePeriod() async throws {
        try await withTemporaryDirectory { directory in
            let pidFile = directory + "/pids"
            let task = Task {
                try await resources.childProcesses.run(
                    arguments: ["sh", "-c", "trap '' TERM; echo $$ > \(pidFile); sleep 300"],
                    environment: Self.environment, workingDirectory: nil,
                    gracePeriod: .milliseconds(300))
            }
            let pids = try await waitForPids(in: pidFile)
            let cancelled = ContinuousClock.now
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            let elapsed = ContinuousClock.now - cancelled
            #expect(elapsed >= .milliseconds(250))
            #expect(elapsed < .seconds(120)) // hang guard: the sleep lasts 300 s
            #expect(await processIsGone(pids[0]))
        }
    }

    @Test func runningChildrenHoldNoBlockingThread() async throws {
        let resources = RunResources(blockingThreads: 1)
        try await withTemporaryDirectory { directory in
            let pidFile = directory + "/pids"
            let count = 8
            let children = Task {
                try await withThrowingTaskGroup(of: ProcessResult.self) { group in
                    for _ in 0..<count {
                        group.addTask {
                            try await resources.childProcesses.run(
                                arguments: ["sh", "-c", "echo $$ >> \(pidFile); exec sleep 300"],
                                environment: Self.environment, workingDirectory: nil)
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let pids = try await waitForPids(in: pidFile, count: count)
            // The pool's only thread is free while all children run: the reaper watches them.
            #expect(try await resources.blockingIO.run { 7 } == 7)
            #expect(pids.allSatisfy { kill($0, 0) == 0 })
            #expect(resources.childProcesses.reaperIsRunning)
            children.cancel()
            await #expect(throws: CancellationError.self) { try await children.value }
            for pid in pids {
                #expect(await processIsGone(pid))
            }
        }
        await resources.shutDown()
        #expect(!resources.childProcesses.reaperIsRunning)
        #expect(resources.blockingIO.threadCount == 0)
    }

    @Test func theReaperThreadExitsOnceNoChildIsLeft() async throws {
        let result = try await run(["sh", "-c", "echo one; echo two >&2"])
        #expect(result.standardOutput == Array("one\n".utf8))
        await resources.childProcesses.shutDown()
        #expect(!resources.childProcesses.reaperIsRunning)
        // A later child starts a new reaper thread.
        #expect(try await run(["true"]).status == .exited(0))
    }

    @Test func refusesToSpawnAfterKillAll() async throws {
        resources.childProcesses.killAllImmediately()
        await #expect(throws: ChildProcessError.spawnFailed("true", "taskgraph is exiting")) {
            try await run(["true"])
        }
    }

    @Test func withoutPidfdsTheReaperPollsForExitsWithTheSameResults() async throws {
        let children = ChildProcesses(pollsExits: true)
        let environment = Self.environment
        let output = try await children.run(
            arguments: ["sh", "-c", "echo out; echo err >&2; exit 4"], environment: environment,
            workingDirectory: nil)
        #expect(output.status == .exited(4))
        #expect(output.standardOutput == Array("out\n".utf8))
        #expect(output.standardErrorTail == Array("err\n".utf8))
        let orphaned = try await children.run(
            arguments: ["sh", "-c", "sleep 30 & echo $!"], environment: environment, workingDirectory: nil)
        let grandchild = try #require(
            pid_t(
                String(decoding: orphaned.standardOutput, as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await processIsGone(grandchild))
        let stubborn = Task {
            try await children.run(
                arguments: ["sh", "-c", "trap '' TERM; sleep 30"], environment: environment,
                workingDirectory: nil, gracePeriod: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(200))
        stubborn.cancel()
        await #expect(throws: CancellationError.self) { try await stubborn.value }
        await children.shutDown()
        #expect(!children.reaperIsRunning)
    }

    @Test func aSIGKILLAskedForAChildAlreadyReapedLeavesTheReaperIdle() async {
        // terminate() found the child registered, then the reaper reaped it before it took the
        // SIGKILL request: the request is dropped and the thread must not wait for nothing.
        let reaper = ChildReaper(registry: ChildRegistry())
        let reaped = ChildProcesses.Child(
            spawnNumber: 1, pid: 999_999, standardInput: -1, standardOutput: -1, standardError: -1)
        reaper.killGroup(of: reaped, at: .now + .seconds(60))
        await reaper.waitUntilIdle()
        #expect(!reaper.isRunning)
    }

    @Test func decodesWaitStatuses() {
        #expect(ExitStatus(waitStatus: 0) == .exited(0))
        #expect(ExitStatus(waitStatus: 3 << 8) == .exited(3))
        #expect(ExitStatus(waitStatus: 9) == .signalled(9))
        #expect(ExitStatus(waitStatus: 0x80 | 6) == .signalled(6)) // core dumped
    }

    /// Runs `body` with the path of a fresh temporary directory, removed afterwards.
    private func withTemporaryDirectory(_ body: (String) async throws -> Void) async throws {
        let path = try await BlockingIO.run {
            let path = NSTemporaryDirectory() + "childprocess-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }
        let remove = { @Sendable in try? FileManager.default.removeItem(atPath: path) }
        do {
            try await body(path)
        } catch {
            _ = try? await BlockingIO.run(remove)
            throw error
        }
        _ = try? await BlockingIO.run(remove)
    }

    /// Waits (up to 90 s: a hang guard; the start of a parallel test run on 2 cores has stalled
    /// every test for 36 s) until scripts have written `count` lines (default 1) of
    /// space-separated pids to `path`.
    private func waitForPids(in path: String, count: Int = 1) async throws -> [pid_t] {
        let deadline = ContinuousClock.now + .seconds(90)
        var line: String?
        while line == nil, ContinuousClock.now < deadline {
            let text = try await BlockingIO.run {
                try? String(contentsOfFile: path, encoding: .utf8)
            }
            if let text, text.hasSuffix("\n"), text.split(separator: "\n").count >= count {
                line = text
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let pids = try #require(line, "no pids written to \(path)")
            .split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
        try #require(!pids.isEmpty)
        return pids
    }

    /// Whether `pid` has terminated within 25 s: it no longer exists, or it is a zombie waiting
    /// for an init process that does not reap (as in some containers).
    private func processIsGone(_ pid: pid_t) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(25)
        while ContinuousClock.now < deadline {
            let gone = try? await BlockingIO.run {
                if kill(pid, 0) != 0, errno == ESRCH {
                    return true
                }
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
                return stat?.split(separator: ")").last?.split(separator: " ").first == "Z"
            }
            if gone == true {
                return true
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
