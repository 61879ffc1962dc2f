import Foundation
import Testing

/// `run --lint`: real programs (`cc`, `sh`, `python3`) run under the file-access tracer, and
/// what they read or wrote without declaring it is reported, or fails them with `--lint=error`.
@Suite struct LintTests {
    /// Whether a C compiler is on the PATH.
    static let hasCompiler = FileManager.default.isExecutableFile(atPath: "/usr/bin/cc")
    /// Whether python3 is on the PATH.
    static let hasPython =
        ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") } ?? false

    /// A compile step that declares its source but not the header the source includes.
    private func compileFixture() throws -> URL {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: build
            operations:
              compile:
                foreach: [util]
                op: exec
                command: [cc, -c, src/main.c, -o, main.o]
                inputs: [src/main.c]
                outputs: [main.o]
            """, to: "build.yaml", in: directory)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("src"), withIntermediateDirectories: true)
        try write("#include \"util.h\"\nint answer(void) { return UTIL; }\n", to: "src/main.c", in: directory)
        try write("#define UTIL 42\n", to: "src/util.h", in: directory)
        return directory
    }

    @Test(.enabled(if: hasCompiler, "no C compiler at /usr/bin/cc"))
    func aCompileThatIncludesAnUndeclaredHeaderIsWarnedAbout() async throws {
        let directory = try compileFixture()
        let result = try await TaskGraphProcess.run(["run", "--lint", "build.yaml", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            warnings(in: result.stderr) == [
                "compile[util]: lint: compile[util] read src/util.h, which it does not declare (inputs: at "
                    + "build.yaml:8:13)"
            ])
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("main.o").path))
    }

    @Test(.enabled(if: hasCompiler, "no C compiler at /usr/bin/cc"))
    func lintErrorFailsTheCompileAndRemovesItsOutput() async throws {
        let directory = try compileFixture()
        let result = try await TaskGraphProcess.run(
            ["run", "build.yaml", "--lint=error", "--no-progress"], in: directory)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "FAILED    compile[util]: lint: compile[util] read src/util.h, which it does not declare (inputs: at "
                    + "build.yaml:8:13)\n"
            ))
        #expect(warnings(in: result.stderr).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("main.o").path))

        // Declared, the header is no finding.
        try write(
            String(decoding: try Data(contentsOf: directory.appendingPathComponent("build.yaml")), as: UTF8.self)
                .replacingOccurrences(of: "inputs: [src/main.c]", with: "inputs: [src/main.c, src/util.h]"),
            to: "build.yaml", in: directory)
        let declared = try await TaskGraphProcess.run(
            ["run", "build.yaml", "--lint=error", "--no-progress"], in: directory)
        #expect(declared.status == 0, "\(declared.stderr)")
        #expect(!declared.stderr.contains("lint:"))
    }

    @Test func aShellThatReadsAndWritesUndeclaredFilesIsReportedForBoth() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: copy
            operations:
              copy:
                op: exec
                command: [sh, -c, 'cat undeclared.txt > out.txt && cat undeclared.txt > copy.txt']
                outputs: [copy.txt]
            """, to: "copy.yaml", in: directory)
        try write("data\n", to: "undeclared.txt", in: directory)
        let result = try await TaskGraphProcess.run(["run", "copy.yaml", "--lint", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            warnings(in: result.stderr) == [
                "copy: lint: copy read undeclared.txt, which it does not declare (no inputs: in the operation at "
                    + "copy.yaml:4:3)",
                "copy: lint: copy wrote out.txt, which it does not declare (outputs: at copy.yaml:7:14)",
            ])

        // A reused result ran nothing to trace; --force runs (and traces) it again.
        let reused = try await TaskGraphProcess.run(
            ["run", "copy.yaml", "--lint", "--no-progress"], in: directory,
            environment: ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path])
        #expect(reused.status == 0, "\(reused.stderr)")
        let forced = try await TaskGraphProcess.run(
            ["run", "copy.yaml", "--lint", "--no-progress", "--force"], in: directory,
            environment: ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path])
        let again = try await TaskGraphProcess.run(
            ["run", "copy.yaml", "--lint", "--no-progress"], in: directory,
            environment: ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path])
        #expect(warnings(in: forced.stderr).count == 2, "\(forced.stderr)")
        #expect(again.stderr.contains("cached    copy"), "\(again.stderr)")
        #expect(warnings(in: again.stderr).isEmpty)
    }

    @Test(.enabled(if: hasPython, "python3 is not on the PATH"))
    func aPythonProgramReadingAnUndeclaredFileIsReported() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: report
            operations:
              summarize:
                op: exec
                command: [python3, -c, "print(len(open('data.csv').read()))"]
                inputs: [other.csv]
            """, to: "report.yaml", in: directory)
        try write("a,b\n1,2\n", to: "data.csv", in: directory)
        try write("x\n", to: "other.csv", in: directory)
        let result = try await TaskGraphProcess.run(["run", "report.yaml", "--lint", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            warnings(in: result.stderr) == [
                "summarize: lint: summarize read data.csv, which it does not declare (inputs: at report.yaml:7:13)"
            ])
    }

    @Test func aFullyDeclaredStepWithTemporaryFilesHasNoFinding() async throws {
        let directory = try fixtureDirectory()
        // A temporary file renamed into place, another removed: neither is an undeclared output.
        try write(
            """
            version: 1
            name: tidy
            operations:
              tidy:
                op: exec
                command: [sh, -c, 'cat in.txt > .out.tmp && mv .out.tmp out.txt && echo x > scratch && cat scratch &&\
             rm scratch']
                inputs: [in.txt]
                outputs: [out.txt]
            """, to: "tidy.yaml", in: directory)
        try write("data\n", to: "in.txt", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "tidy.yaml", "--lint=error", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("lint:"), "\(result.stderr)")
        #expect(lines(of: "out.txt", in: directory) == ["data"])
    }

    @Test func filesProducedByANeededOperationAreNotReported() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: chain
            operations:
              make:
                op: exec
                command: [echo, generated]
              keep:
                op: save
                needs: make
                path: gen/data.txt
              use:
                op: exec
                needs: keep
                command: [cat, out/gen/data.txt, extra.txt]
            """, to: "chain.yaml", in: directory)
        try write("extra\n", to: "extra.txt", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "chain.yaml", "--lint", "--output", "out", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            warnings(in: result.stderr) == [
                "use: lint: use read extra.txt, which it does not declare (no inputs: in the operation at "
                    + "chain.yaml:11:3)"
            ])
    }

    @Test func theDeclaredOutputsOfANeededExecAreNotReported() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: chain
            operations:
              make: {op: exec, command: [sh, -c, 'echo made > made.txt'], outputs: [made.txt]}
              use: {op: exec, needs: make, command: [sh, -c, 'cat made.txt > used.txt'], outputs: [used.txt]}
            """, to: "chain.yaml", in: directory)
        let result = try await TaskGraphProcess.run(["run", "chain.yaml", "--lint", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(warnings(in: result.stderr) == [])
    }

    @Test func aTracedProgramLoadsTheTracerAndNoLibraryBesideLibc() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: maps
            operations:
              maps: {op: exec, command: [cat, /proc/self/maps]}
              keep: {op: save, needs: maps, path: maps.txt}
            """, to: "maps.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "maps.yaml", "--lint", "--output", "out", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let mapped = Set(
            lines(of: "out/maps.txt", in: directory).compactMap { line in
                line.split(separator: "/").last.map(String.init).flatMap { $0.contains(".so") ? $0 : nil }
            })
        #expect(mapped.contains("libTaskGraphFileTrace.so"), "\(mapped)")
        // Loaded into every traced program, the tracer needs libc alone (TraceRecords.c).
        #expect(!mapped.contains { $0.hasPrefix("libstdc++") || $0.hasPrefix("libswiftCore") }, "\(mapped)")
    }

    @Test func aMissingTracerIsAUsageError() async throws {
        let directory = try fixtureDirectory()
        try write(
            "version: 1\nname: one\noperations:\n  one: {op: exec, command: [true]}\n", to: "one.yaml", in: directory)
        let copy = directory.appendingPathComponent("bin/taskgraph")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Copied by `cp`, not by this process: a child another test forks while the copy is
        // open for writing would inherit the descriptor, and executing the copy could fail
        // with ETXTBSY. Nor a hard link: that changes the binary's `stat`, on which other
        // tests' up-to-date snapshots rest (UpToDateRunTests).
        let copied = try await TaskGraphProcess.run(
            [TaskGraphProcess.binary.path, copy.path], in: directory, executable: URL(fileURLWithPath: "/bin/cp"))
        #expect(copied.status == 0, "\(copied.stderr)")
        let result = try await TaskGraphProcess.run(["run", "one.yaml", "--lint"], in: directory, executable: copy)
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: --lint: the file-access tracer libTaskGraphFileTrace.so is not beside the taskgraph "
                    + "executable; "
                    + "'swift build' builds it there ('swift build --product TaskGraphFileTrace' alone)\n"),
            "\(result.stderr)")
    }

    @Test func anInterruptedTracedRunLeavesNoTraceFile() async throws {
        let directory = try fixtureDirectory()
        let temporary = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        try write(
            """
            version: 1
            name: slow
            operations:
              slow: {op: exec, command: [sh, -c, 'echo $$ > pid-shell; exec sleep 300']}
            """, to: "slow.yaml", in: directory)
        let process = try TaskGraphProcess(
            ["run", "slow.yaml", "--lint", "--no-progress"], in: directory, environment: ["TMPDIR": temporary.path])
        _ = try await waitForFiles("pid-", count: 1, in: directory)
        let traces = { (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] }
        #expect(traces().count == 1 && traces()[0].hasPrefix(".taskgraph-file-trace.tmp-"), "\(traces())")
        process.send(SIGINT)
        #expect(await process.waitForTermination() == .killed(by: SIGINT))
        #expect(traces() == [])
    }

    @Test func lintDoesNotGoWithTheSlurmExecutor() async throws {
        let directory = try fixtureDirectory()
        try write(
            "version: 1\nname: one\noperations:\n  one: {op: exec, command: [true]}\n", to: "one.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "one.yaml", "--lint", "--executor", "slurm"], in: directory)
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: --lint traces the programs this process runs; it does not go with the slurm executor\n"),
            "\(result.stderr)")
    }

    /// The text of each `warning` line of a plain log, in order.
    private func warnings(in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            line.range(of: "] warning   ").map { String(line[$0.upperBound...]) }
        }
    }
}
