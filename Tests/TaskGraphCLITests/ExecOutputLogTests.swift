import Foundation
import Testing

/// `run --logs`: the lines `exec` programs write, prefixed with their operation's id, as they
/// arrive, grouped, for failures only or not at all; standard output a dependent reads as data
/// is not shown.
@Suite struct ExecOutputLogTests {
    /// Two programs whose lines interleave, half a second apart: `a` ends first; `data`'s output
    /// is `keep`'s input.
    private static let pipeline = """
        version: 1
        name: talk
        operations:
          a: {op: exec, command: [sh, -c, 'echo a1; sleep 1; echo a2 >&2']}
          b: {op: exec, command: [sh, -c, 'sleep 0.5; echo "b1\tcolumn"; sleep 1; printf b2']}
          data: {op: exec, command: [sh, -c, 'echo secret; echo "data note" >&2']}
          keep: {op: save, needs: data, path: data.txt}
        """

    /// The lines of taskgraph's standard error that show programs' lines or say a step failed
    /// (without the time).
    private func shownLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains(" | ") || $0.contains("FAILED") }.map { line in
            line.hasPrefix("[") ? line.drop { $0 != "]" }.dropFirst(2) : line
        }
    }

    private func run(_ logs: [String], _ pipeline: String = pipeline) async throws -> (
        status: Int32, shown: [Substring]
    ) {
        let directory = try fixtureDirectory()
        try write(pipeline, to: "talk.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "talk.yaml", "--no-progress", "--output", "out", "-j", "4"] + logs, in: directory)
        return (result.status, shownLines(result.stderr))
    }

    @Test func prefixedShowsEachLineAsItArrives() async throws {
        for logs in [[], ["--logs", "prefixed"]] {
            let result = try await run(logs)
            #expect(result.status == 0)
            #expect(result.shown.filter { !$0.hasPrefix("data") } == ["a | a1", "b | b1\tcolumn", "a | a2", "b | b2"])
            #expect(result.shown.filter { $0.hasPrefix("data") } == ["data | data note"])
        }
    }

    @Test func groupedShowsEachStepsLinesTogetherWhenItEnds() async throws {
        let result = try await run(["--logs", "grouped"])
        #expect(result.status == 0)
        #expect(result.shown.filter { !$0.hasPrefix("data") } == ["a | a1", "a | a2", "b | b1\tcolumn", "b | b2"])
    }

    @Test func errorsShowsOnlyFailedStepsLinesBeforeTheFailure() async throws {
        let result = try await run(
            ["--logs", "errors"],
            Self.pipeline + """

                  broken: {op: exec, command: [sh, -c, 'echo working; sleep 0.3; echo "no such file" >&2; exit 3']}
                """)
        #expect(result.status == 1)
        #expect(
            result.shown == [
                "broken | working", "broken | no such file",
                "FAILED    broken: 'sh' exited with status 3: no such file",
            ])
    }

    @Test func noneShowsNoLines() async throws {
        let result = try await run(["--logs", "none"])
        #expect(result.status == 0)
        #expect(result.shown.isEmpty)
    }

    /// A failed step shows its lines up to a bound, then the last ones with how much it wrote.
    @Test func aFailedStepsLongOutputIsShownAsItsTailWithTheByteCount() async throws {
        let result = try await run(
            ["--logs", "errors"],
            """
            version: 1
            name: long
            operations:
              long: {op: exec, command: [python3, -c, 'import sys; [print("%04d" % i + "x" * 94, file=sys.stderr) for\
             i in range(1000)]; sys.exit(1)']}
            """)
        #expect(result.status == 1)
        #expect(result.shown.first == "long | … 99.0 kB of output, the last 65.4 kB:")
        #expect(result.shown.dropFirst().first.map(String.init) == "long | 0339" + String(repeating: "x", count: 94))
        #expect(result.shown.filter { $0.hasPrefix("long | ") }.count == 1 + 661)
    }

    /// A reused `exec` shows the lines it wrote when it ran, marked, in `prefixed` and `grouped`
    /// modes: its standard output (unless a dependent reads it), then its standard error.
    @Test func aReusedStepReplaysItsRecordedLines() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: replay
            operations:
              say: {op: exec, command: [sh, -c, 'echo err1 >&2; echo out1'], inputs: [in.txt]}
              data: {op: exec, command: [sh, -c, 'echo secret; echo note >&2'], inputs: [in.txt]}
              keep: {op: save, needs: data, path: data.txt}
            """, to: "replay.yaml", in: directory)
        try write("one\n", to: "in.txt", in: directory)
        var shown: [[Substring]] = []
        // Each command line differs from the one before: none is taken for the same command again.
        for logs in ["none", "prefixed", "grouped", "errors"] {
            let result = try await TaskGraphProcess.run(
                ["run", "replay.yaml", "--no-progress", "--output", "out", "--logs", logs], in: directory,
                environment: ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path])
            #expect(result.status == 0, "\(result.stderr)")
            shown.append(shownLines(result.stderr).sorted())
        }
        let replayed: [Substring] = ["data (replayed) | note", "say (replayed) | err1", "say (replayed) | out1"]
        #expect(shown == [[], replayed, replayed, []])
    }

    /// On a terminal, programs' lines are printed above the live display, each on a line of its
    /// own: the display erases its frame before them and draws it again after.
    @Test func linesArePrintedAboveTheLiveDisplay() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: slow
            operations:
              say: {op: exec, command: [sh, -c, 'sleep 0.3; echo one; sleep 0.3; echo two']}
            """, to: "slow.yaml", in: directory)
        let (status, screen) = try await TaskGraphProcess.runOnTerminal("run slow.yaml", in: directory)
        #expect(status == 0)
        #expect(screen.contains("/1  done "), "draws the progress line")
        // Each line starts where the frame was erased, or after a line printed with it.
        let shown = screen.components(separatedBy: "say | ").dropFirst()
        #expect(shown.count == 2)
        #expect(shown.first?.hasPrefix("one\r\n") == true && shown.last?.hasPrefix("two\r\n") == true)
        for before in screen.components(separatedBy: "say | ").dropLast() {
            #expect(
                before.hasSuffix("\r\u{1B}[J") || before.hasSuffix("one\r\n"), "\(before.suffix(20).debugDescription)")
        }
    }
}
