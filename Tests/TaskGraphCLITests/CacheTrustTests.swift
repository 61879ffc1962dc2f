import Foundation
import Testing

/// The cache's rules, as a user meets them: an `exec`'s declared outputs are part of its result,
/// files make dependencies, and an `exec` that declares nothing it reads or writes runs every
/// time. Each test here failed on the runner before these rules (a stale binary, a skipped
/// deploy).
@Suite struct CacheTrustTests {
    private func run(_ arguments: [String], in directory: URL) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try await TaskGraphProcess.run(
            arguments, in: directory,
            environment: ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path])
    }

    /// Runs `bin/app` in `directory` and returns what it printed.
    private func answer(in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = directory.appendingPathComponent("bin/app")
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aRebuiltObjectFileRelinksAndRetests() async throws {
        let directory = try fixtureDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("src"), withIntermediateDirectories: true)
        for folder in ["obj", "bin"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try write(
            """
            version: 1
            name: build
            vars:
              units: [main, util]
            operations:
              compile:
                foreach: ${units}
                op: exec
                command: [cc, -c, "src/${item}.c", -o, "obj/${item}.o"]
                inputs: ["src/${item}.c"]
                outputs: ["obj/${item}.o"]
              link: {op: exec, needs: compile, command: [cc, obj/main.o, obj/util.o, -o, bin/app], outputs: [bin/app]}
              test: {op: exec, needs: link, command: [bin/app], cache: true}
            """, to: "build.yaml", in: directory)
        try write(
            "#include <stdio.h>\nint answer(void);\nint main(void) { printf(\"%d\\n\", answer()); return 0; }\n",
            to: "src/main.c", in: directory)
        try write("int answer(void) { return 41; }\n", to: "src/util.c", in: directory)
        let first = try await run(["run", "build.yaml", "--no-progress"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try answer(in: directory) == "41\n")

        try write("int answer(void) { return 42; }\n", to: "src/util.c", in: directory)
        let second = try await run(["run", "build.yaml", "--no-progress", "--explain"], in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            second.stdout == """
                compile[main]: cached
                compile[util]: run: file changed: src/util.c
                link: run: input changed: compile[util] <- file changed: src/util.c in compile[util]
                test: run: program changed: bin/app

                """)
        #expect(try answer(in: directory) == "42\n")

        let third = try await run(["run", "build.yaml", "--no-progress", "--explain"], in: directory)
        #expect(
            third.stdout == "compile[main]: cached\ncompile[util]: cached\nlink: cached\ntest: cached\n",
            "\(third.stderr)")
    }

    @Test func filesMakeDependenciesWithoutNeeds() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: files
            operations:
              report: {op: exec, command: [sh, -c, 'cat made/*.txt > report.txt'], inputs: ["made/*.txt"], outputs:\
             [report.txt]}
              make: {op: exec, command: [sh, -c, 'mkdir -p made; cat in.txt > made/one.txt'], inputs: [in.txt],\
             outputs: [made/one.txt]}
            """, to: "files.yaml", in: directory)
        try write("first\n", to: "in.txt", in: directory)
        let first = try await run(["run", "files.yaml", "--no-progress"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(lines(of: "report.txt", in: directory) == ["first"])

        try write("second\n", to: "in.txt", in: directory)
        let second = try await run(["run", "files.yaml", "--no-progress", "--explain"], in: directory)
        #expect(
            second.stdout == """
                report: run: file changed: made/one.txt
                make: run: file changed: in.txt

                """, "\(second.stderr)")
        #expect(lines(of: "report.txt", in: directory) == ["second"])

        let graph = try await run(["graph", "files.yaml"], in: directory)
        #expect(graph.stdout.contains("  n0 -> n1 [style=dashed, label=\"made/one.txt\"];\n"), "\(graph.stdout)")
    }

    @Test func aCycleThroughFilesIsAnErrorBeforeAnythingRuns() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: loop
            operations:
              a: {op: exec, command: [sh, -c, 'cat b.txt > a.txt'], inputs: [b.txt], outputs: [a.txt]}
              b: {op: exec, command: [sh, -c, 'cat a.txt > b.txt'], inputs: [a.txt], outputs: [b.txt]}
            """, to: "loop.yaml", in: directory)
        let result = try await run(["validate", "loop.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                loop.yaml:4:66: error: dependency cycle: a -> b -> a
                loop.yaml:4:66: note: 'a' reads 'b.txt', which 'b' writes
                loop.yaml:5:66: note: 'b' reads 'a.txt', which 'a' writes
                1 error in 1 of 1 file: invalid

                """)
    }

    @Test func anExecThatDeclaresNoFilesRunsEveryTime() async throws {
        let directory = try fixtureDirectory()
        let pipeline = """
            version: 1
            name: deploy
            operations:
              publish: {op: exec, command: [sh, -c, 'echo published >> publish.log']}
              notify: {op: exec, needs: publish, command: [sh, -c, 'echo notified >> notify.log'], cache: true}
            """
        try write(pipeline, to: "deploy.yaml", in: directory)
        var explanations: [String] = []
        for _ in 0..<2 {
            let result = try await run(["run", "deploy.yaml", "--no-progress", "--explain"], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            explanations.append(result.stdout)
        }
        #expect(lines(of: "publish.log", in: directory).count == 2)
        // Its result (its empty output) did not change: what needs it is reused.
        #expect(lines(of: "notify.log", in: directory).count == 1)
        let always = "publish: run: not cacheable: exec declares no inputs or outputs; set cache: true to reuse it\n"
        #expect(explanations == [always + "notify: run: new\n", always + "notify: cached\n"])

        // Asked for, it is reused.
        try write(
            pipeline.replacingOccurrences(
                of: "echo published >> publish.log']}", with: "echo published >> publish.log'], cache: true}"),
            to: "deploy.yaml", in: directory)
        for _ in 0..<2 {
            let result = try await run(["run", "deploy.yaml", "--no-progress"], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(lines(of: "publish.log", in: directory).count == 3)
    }

    /// A loaded file's result names its path: a copy of the pipeline elsewhere, sharing the
    /// store, loads its own file (found by the differential torture: copy b reused copy a's
    /// `load`, and what needed it ran again for nothing).
    @Test func aCopyOfThePipelineElsewhereLoadsItsOwnFile() async throws {
        let root = try fixtureDirectory()
        let store = root.appendingPathComponent("cache").path
        var copies: [URL] = []
        for name in ["a", "b"] {
            let copy = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try write(
                """
                version: 1
                name: copy
                operations:
                  gen: {op: exec, command: [sh, -c, 'cat in.txt > gen.txt'], inputs: [in.txt], outputs: [gen.txt]}
                  read: {op: load, path: gen.txt}
                  keep: {op: save, needs: read, path: copy.txt}
                """, to: "copy.yaml", in: copy)
            try write("same\n", to: "in.txt", in: copy)
            copies.append(copy)
        }
        var explanations: [String] = []
        for copy in copies + [copies[1]] {
            let result = try await TaskGraphProcess.run(
                ["run", "copy.yaml", "--no-progress", "--explain", "--output", "out"], in: copy,
                environment: ["TASKGRAPH_CACHE_DIR": store])
            #expect(result.status == 0, "\(result.stderr)")
            explanations.append(result.stdout)
        }
        // Keys travel (key version 3): the exec's result is the other copy's, its file restored
        // here; a load's result names its file's absolute path, so it and what uses it run.
        #expect(explanations[1] == "gen: cached: output missing: gen.txt (restored)\nread: run: new\nkeep: run: new\n")
        #expect(lines(of: "gen.txt", in: copies[1]) == ["same"])
        #expect(explanations[2] == "gen: cached\nread: cached\nkeep: cached\n")
    }
}
