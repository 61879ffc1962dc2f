import Foundation
import Testing

/// `exec` operations against a store shared by successive runs: declared inputs and outputs,
/// resuming an interrupted run, a store that cannot take results.
@Suite struct CachedExecTests {
    private func run(_ arguments: [String], in directory: URL, cache: String? = nil) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try await TaskGraphProcess.run(
            arguments, in: directory,
            environment: ["TASKGRAPH_CACHE_DIR": cache ?? directory.appendingPathComponent("cache").path])
    }

    @Test func anExecWithDeclaredInputsRunsAgainOnlyWhenTheirContentChanges() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: copy
            operations:
              copy:
                op: exec
                command: [sh, -c, 'cat in.txt > out.txt; echo ran >> runs.log']
                inputs: [in.txt]
                outputs: [out.txt]
            """, to: "copy.yaml", in: directory)
        try write("one\n", to: "in.txt", in: directory)
        for _ in 0..<2 {
            let result = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(lines(of: "runs.log", in: directory).count == 1)

        // A new modification time with the same content: hashed again, still a hit.
        try write("one\n", to: "in.txt", in: directory)
        let touched = try await run(["run", "copy.yaml", "--no-progress", "--explain"], in: directory)
        #expect(touched.stdout == "copy: cached\n", "\(touched.stderr)")

        // A deleted output is restored without running the program.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("out.txt"))
        let restored = try await run(["run", "copy.yaml", "--no-progress", "--explain"], in: directory)
        #expect(restored.stdout == "copy: cached: output missing: out.txt (restored)\n", "\(restored.stderr)")
        #expect(lines(of: "out.txt", in: directory) == ["one"])

        try write("two\n", to: "in.txt", in: directory)
        let changed = try await run(["run", "copy.yaml", "--no-progress", "--explain"], in: directory)
        #expect(changed.stdout == "copy: run: file changed: in.txt\n", "\(changed.stderr)")
        #expect(lines(of: "runs.log", in: directory).count == 2)
        #expect(lines(of: "out.txt", in: directory) == ["two"])
    }

    @Test func anUndeclaredVariableNeitherReachesTheProgramNorItsKey() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: env
            operations:
              show: {op: exec, command: [sh, -c, 'echo "[$UNDECLARED_SETTING]"'], cache: true}
              keep: {op: save, needs: show, path: shown.txt}
            """, to: "env.yaml", in: directory)
        let cache = directory.appendingPathComponent("cache").path
        for (value, expected) in [("a", "show: run: new\nkeep: run: new\n"), ("b", "show: cached\nkeep: cached\n")] {
            let result = try await TaskGraphProcess.run(
                ["run", "env.yaml", "--no-progress", "--explain", "--output", "out"], in: directory,
                environment: ["TASKGRAPH_CACHE_DIR": cache, "UNDECLARED_SETTING": value])
            #expect(result.stdout == expected, "\(result.stderr)")
            #expect(lines(of: "out/shown.txt", in: directory) == ["[]"])
        }
    }

    @Test func aRunInterruptedByCtrlCResumesWhereItStopped() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: resume
            operations:
              first: {op: exec, command: [sh, -c, 'echo first >> runs.log'], cache: true}
              second: {op: exec, needs: first, command: [sh, -c, 'echo second >> runs.log'], cache: true}
              slow:
                op: exec
                needs: second
                command: [sh, -c, 'if [ -f go ]; then echo slow >> runs.log; else touch slow.started; sleep 300; fi']
            """, to: "resume.yaml", in: directory)
        let cache = directory.appendingPathComponent("cache").path
        let interrupted = try TaskGraphProcess(
            ["run", "resume.yaml", "--no-progress"], in: directory, environment: ["TASKGRAPH_CACHE_DIR": cache])
        for _ in 0..<400
        where !FileManager.default.fileExists(atPath: directory.appendingPathComponent("slow.started").path) {
            try await Task.sleep(for: .milliseconds(25))
        }
        interrupted.sendToGroup(SIGINT)
        #expect(await interrupted.waitForExit() == -SIGINT)
        try write("", to: "go", in: directory)
        let resumed = try await run(["run", "resume.yaml", "--no-progress", "--explain"], in: directory)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(
            resumed.stdout == """
                first: cached
                second: cached
                slow: run: not cacheable: exec declares no inputs or outputs; set cache: true to reuse it

                """, "\(resumed.stderr)")
        #expect(lines(of: "runs.log", in: directory) == ["first", "second", "slow"])
    }

    /// A `group` is reused when everything it needs was, runs when something it needs ran
    /// (explained by that), and never has a record of its own in the store.
    @Test func aGroupFollowsWhatItNeedsAndIsNotStored() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: all
            operations:
              copy:
                op: exec
                command: [sh, -c, 'cat in.txt > out.txt']
                inputs: [in.txt]
                outputs: [out.txt]
              all: {op: group, needs: copy}
            """, to: "all.yaml", in: directory)
        try write("one\n", to: "in.txt", in: directory)
        let expected = [
            "copy: run: new\nall: run: input changed: copy <- new in copy\n",
            "copy: cached\nall: cached\n",
        ]
        for explanation in expected {
            let result = try await run(["run", "all.yaml", "--no-progress", "--explain"], in: directory)
            #expect(result.stdout == explanation, "\(result.stderr)")
        }
        try write("two\n", to: "in.txt", in: directory)
        let changed = try await run(["run", "all.yaml", "--no-progress", "--explain"], in: directory)
        #expect(
            changed.stdout
                == "copy: run: file changed: in.txt\nall: run: input changed: copy <- file changed: in.txt in copy\n")
        let records =
            FileManager.default.enumerator(atPath: directory.appendingPathComponent("cache/v1/records").path)?
            .compactMap { $0 as? String }.filter { $0.count > 64 } ?? []
        #expect(records.count == 2, "one record per content of in.txt, none for the group: \(records)")
    }

    @Test func aStoreThatCannotBeWrittenOnlyWarns() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: hello
            operations:
              greet: {op: exec, command: [echo, hello], cache: true}
              keep: {op: save, needs: greet, path: greeting.txt}
            """, to: "hello.yaml", in: directory)
        // A store below a regular file cannot be created, whoever runs the test.
        try write("", to: "not-a-directory", in: directory)
        let store = directory.appendingPathComponent("not-a-directory/cache").path
        let result = try await run(
            ["run", "hello.yaml", "--no-progress", "--output", "out"], in: directory, cache: store)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning   greet: caching skipped for greet: "), "\(result.stderr)")
        // Once for everything kept after the run: key components, statistics, digests and ids.
        #expect(
            result.stderr.split(separator: "\n").filter { $0.hasPrefix("taskgraph: warning: ") } == [
                "taskgraph: warning: the cache was not updated after the run: cannot write to the cache at \(store): "
                    + "Not a directory"
            ], "\(result.stderr)")
        #expect(lines(of: "out/greeting.txt", in: directory) == ["hello"])
    }

    /// A store on a full filesystem (a 64 KiB tmpfs in a mount namespace of the run's own; skipped
    /// where namespaces are not allowed): the run succeeds, warning what was not cached.
    @Test func aFullStoreOnlyWarns() async throws {
        let directory = try fixtureDirectory()
        let full = directory.appendingPathComponent("full")
        try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
        let probe = try await TaskGraphProcess.run(
            ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs \"$0\"", full.path], in: directory,
            executable: URL(fileURLWithPath: "/usr/bin/unshare"))
        try #require(probe.status == 0, "no mount namespaces here: \(probe.stderr)")
        try write(
            """
            version: 1
            name: big
            operations:
              make: {op: exec, command: [head, -c, "1000000", /dev/zero], cache: true}
              keep: {op: save, needs: make, path: zeros.bin}
            """, to: "big.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            [
                "-rm", "sh", "-c",
                "mount -t tmpfs -o size=64k tmpfs \"$0\" && exec \"$1\" run big.yaml --no-progress --output out",
                full.path, TaskGraphProcess.binary.path,
            ],
            in: directory, environment: ["TASKGRAPH_CACHE_DIR": full.path + "/cache"],
            executable: URL(fileURLWithPath: "/usr/bin/unshare"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("caching skipped for make: "), "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        let written = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent("out/zeros.bin").path)
        #expect(written[.size] as? Int == 1_000_000)
    }
}
