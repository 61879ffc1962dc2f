import Foundation
import Testing

/// `run --watch`: a change to what the pipeline reads runs it again, reusing the rest; a change
/// during a run cancels it and starts again; the run's own outputs start nothing; Ctrl-C ends
/// the watch as it ends a run.
@Suite struct WatchTests {
    private let pipeline = """
        version: 1
        name: watched
        output: out
        operations:
          copy: {op: exec, inputs: [in/a.txt], command: [cat, in/a.txt]}
          slow: {op: exec, inputs: [in/slow.txt], outputs: [slow.out], command: [sh, -c, "echo $$ > .pid-slow; sleep\
         $(cat in/slow.txt); touch slow.out"]}
          keep: {op: save, needs: copy, path: kept.txt}
        """

    private func directory(slowSeconds: Int = 0) throws -> URL {
        let directory = try fixtureDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("in"), withIntermediateDirectories: true)
        try write(pipeline, to: "p.yaml", in: directory)
        try write("one", to: "in/a.txt", in: directory)
        try write(String(slowSeconds), to: "in/slow.txt", in: directory)
        return directory
    }

    /// Waits (at most 30 s) until the process's standard error says `text` `count` times.
    private func waitFor(_ text: String, count: Int = 1, in process: TaskGraphProcess) async throws {
        for _ in 0..<1_200 {
            if process.standardError.components(separatedBy: text).count - 1 >= count { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("timed out waiting for '\(text)' × \(count); standard error:\n\(process.standardError)")
    }

    @Test func aChangedInputRunsAgainAndCtrlCEndsTheWatch() async throws {
        let directory = try directory()
        let process = try TaskGraphProcess(["run", "p.yaml", "--watch", "--no-progress"], in: directory)
        try await waitFor("taskgraph: watching for changes (Ctrl-C ends)", in: process)
        #expect(process.standardError.contains("3 ok in"))

        try write("two", to: "in/a.txt", in: directory)
        try await waitFor("taskgraph: watching for changes (Ctrl-C ends)", count: 2, in: process)
        #expect(process.standardError.contains("taskgraph: in/a.txt changed; running again\n"))
        #expect(process.standardError.contains("2 ok, 1 cached in"))
        #expect(lines(of: "out/kept.txt", in: directory) == ["two"])
        // What the runs wrote (slow.out, a hidden file, the output directory) started no run.
        #expect(process.standardError.components(separatedBy: "running again").count - 1 == 1)

        process.send(SIGINT)
        #expect(await process.waitForTermination() == .killed(by: SIGINT))
    }

    @Test func aChangeDuringARunCancelsItAndStartsAgain() async throws {
        let directory = try directory(slowSeconds: 60)
        let process = try TaskGraphProcess(["run", "p.yaml", "--watch", "--no-progress"], in: directory)
        _ = try await waitForFiles(".pid-slow", count: 1, in: directory)
        try write("0", to: "in/slow.txt", in: directory)
        try await waitFor("taskgraph: watching for changes (Ctrl-C ends)", in: process)
        #expect(process.standardError.contains("taskgraph: in/slow.txt changed; running again\n"))
        #expect(process.standardError.contains("slow       cancelled"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("slow.out").path))

        process.send(SIGINT)
        #expect(await process.waitForTermination() == .killed(by: SIGINT))
    }

    @Test func aFileDroppedIntoAGlobbedFolderRunsItsInstance() async throws {
        let directory = try fixtureDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("in"), withIntermediateDirectories: true)
        try write("a", to: "in/a.txt", in: directory)
        try write(
            """
            version: 1
            name: folder
            output: out
            operations:
              show: {foreach: {glob: "in/*.txt"}, op: exec, inputs: ["${item}"], command: [cat, "${item}"]}
            """, to: "p.yaml", in: directory)
        let process = try TaskGraphProcess(["run", "p.yaml", "--watch", "--no-progress"], in: directory)
        try await waitFor("taskgraph: watching for changes (Ctrl-C ends)", in: process)

        try write("b", to: "in/b.txt", in: directory)
        try await waitFor("taskgraph: watching for changes (Ctrl-C ends)", count: 2, in: process)
        #expect(process.standardError.contains("taskgraph: in/b.txt changed; running again\n"))
        #expect(process.standardError.contains("1 ok, 1 cached in"))

        process.send(SIGINT)
        #expect(await process.waitForTermination() == .killed(by: SIGINT))
    }
}
