import Foundation
import Testing

/// taskgraph started with standard input and output closed: what it opens first takes those
/// numbers (libdispatch's descriptors, under strace the pipes a child gets were 14 to 17; a pipe
/// end that lands on a standard number keeps it across exec, `tg_spawn`), and a child still
/// gets its own standard descriptors: its output is captured as usual.
@Suite struct ClosedStandardDescriptorsTests {
    @Test func anExecPrintsWhenTaskgraphStartsWithStandardInputAndOutputClosed() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: closed
            operations:
              hello:
                op: exec
                command: [printf, hello]
              keep:
                op: save
                needs: hello
                path: hello.txt
            """, to: "closed.yaml", in: directory)
        let process = try TaskGraphProcess(
            [
                "-c", #"exec 0<&- 1>&- "$0" run closed.yaml --no-cache --no-progress --output out"#,
                TaskGraphProcess.binary.path,
            ], in: directory, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(await process.waitForTermination() == .exited(0), "\(process.standardError)")
        let saved = try String(contentsOf: directory.appendingPathComponent("out/hello.txt"), encoding: .utf8)
        #expect(saved == "hello")
    }
}
