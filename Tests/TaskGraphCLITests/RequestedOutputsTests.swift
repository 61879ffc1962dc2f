import Foundation
import Testing

/// The files a run writes because the user named them (`--events`, `--trace`, `--report`,
/// `report -o`) as an attack surface: a FIFO or a device is written in place, never replaced;
/// the pipeline file, or one file named twice, is never overwritten; a write that fails is
/// reported and fails the command. Devices are private copies made with `mknod` in a temporary
/// directory (as root; skipped otherwise), never the machine's own.
@Suite struct RequestedOutputsTests {
    private static let usage = "Usage: taskgraph <subcommand>\n  See 'taskgraph --help' for more information.\n"

    /// The type of the file at `path` (`S_IFIFO`, `S_IFCHR`, `S_IFREG`), not following links.
    private func type(of path: URL) -> mode_t? {
        var info = stat()
        return lstat(path.path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// A private copy of `/dev/full` (every write fails with `ENOSPC`) named `name` in `directory`.
    private func fullDevice(_ name: String, in directory: URL) -> URL {
        let device = directory.appendingPathComponent(name)
        // Major 1, minor 7 in glibc's encoding (`makedev(1, 7)`, a macro Swift cannot call).
        #expect(mknod(device.path, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0)
        return device
    }

    @Test func aFIFOGetsTheReportInPlaceAndStaysAFIFO() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let fifo = directory.appendingPathComponent("report.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "exec cat report.fifo > read.html"]
        reader.currentDirectoryURL = directory
        try reader.run()
        let result = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--no-progress", "--report", "report.fifo"], in: directory)
        #expect(result.status == 0)
        // A FIFO replaced by a rename leaves its reader waiting forever: a hang guard.
        for _ in 0..<200 where reader.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!reader.isRunning, "the FIFO's reader got no end of file")
        if reader.isRunning { kill(reader.processIdentifier, SIGKILL) }
        let page = try String(contentsOf: directory.appendingPathComponent("read.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!doctype html>"))
        #expect(type(of: fifo) == S_IFIFO)
    }

    @Test func aFIFOWithoutAReaderIsReportedNotReplaced() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let fifo = directory.appendingPathComponent("trace.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let result = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--no-progress", "--trace", "trace.fifo"], in: directory)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "taskgraph: cannot write the trace: cannot write 'trace.fifo': no process reads the FIFO\n"))
        #expect(type(of: fifo) == S_IFIFO)
    }

    @Test(.enabled(if: getuid() == 0, "mknod of a private device copy needs root"))
    func aFullDeviceFailsEveryRequestedOutputAndStaysADevice() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let full = fullDevice("full", in: directory)
        let events = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--no-progress", "--events", "full"], in: directory)
        #expect(events.status == 1)
        #expect(events.stderr.contains("taskgraph: cannot write the events to full: No space left on device\n"))
        let report = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--no-progress", "--report", "full", "--events", "run.jsonl"],
            in: directory)
        #expect(report.status == 1)
        #expect(
            report.stderr.contains("taskgraph: cannot write the report: cannot write 'full': No space left on device\n")
        )
        let later = try await TaskGraphProcess.run(["report", "run.jsonl", "-o", "full"], in: directory)
        #expect(later.status == 1)
        #expect(later.stderr == "taskgraph: cannot write the report: cannot write 'full': No space left on device\n")
        let json = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--no-progress", "--json", "--trace", "full"], in: directory)
        #expect(json.status == 1)
        #expect(
            json.stderr.contains("taskgraph: cannot write the trace: cannot write 'full': No space left on device\n"))
        #expect(type(of: full) == S_IFCHR)
    }

    @Test func thePipelineFileOrOneFileNamedTwiceIsRefusedBeforeAnythingRuns() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let pipeline = try String(contentsOf: directory.appendingPathComponent("hello.yaml"), encoding: .utf8)
        #expect(
            link(
                directory.appendingPathComponent("hello.yaml").path, directory.appendingPathComponent("alias.yaml").path
            ) == 0)
        let refusals: [([String], String)] = [
            (["--events", "hello.yaml"], "the pipeline file and --events name the same file 'hello.yaml'"),
            (["--trace", "./alias.yaml"], "the pipeline file and --trace name the same file './alias.yaml'"),
            (
                ["--events", "run.jsonl", "--report", "sub/../run.jsonl"],
                "--events and --report name the same file 'sub/../run.jsonl'"
            ),
            (["--trace", "t.json", "--report", "t.json"], "--trace and --report name the same file 't.json'"),
        ]
        for (arguments, message) in refusals {
            let result = try await TaskGraphProcess.run(
                ["run", "hello.yaml", "--output", "out"] + arguments, in: directory)
            #expect(result.status == 64)
            #expect(result.stderr == "Error: \(message); it would be overwritten\n" + Self.usage)
        }
        #expect(try String(contentsOf: directory.appendingPathComponent("hello.yaml"), encoding: .utf8) == pipeline)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
        let recorded = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--events", "run.jsonl"], in: directory)
        #expect(recorded.status == 0)
        let events = try String(contentsOf: directory.appendingPathComponent("run.jsonl"), encoding: .utf8)
        let report = try await TaskGraphProcess.run(["report", "run.jsonl", "-o", "run.jsonl"], in: directory)
        #expect(report.status == 64)
        #expect(
            report.stderr.hasPrefix(
                "Error: the events file and --output name the same file 'run.jsonl'; it would be overwritten\n"))
        #expect(try String(contentsOf: directory.appendingPathComponent("run.jsonl"), encoding: .utf8) == events)
    }
}
