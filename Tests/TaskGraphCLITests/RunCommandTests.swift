import Foundation
import Testing

@Suite struct RunCommandTests {
    @Test func runsThePipelineAndWritesOutputs() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let result = try await TaskGraphProcess.run(["run", "hello.yaml", "--output", "out"], in: directory)
        #expect(result.status == 0)
        let ann = try String(contentsOf: directory.appendingPathComponent("out/greetings/ann.txt"), encoding: .utf8)
        let bob = try String(contentsOf: directory.appendingPathComponent("out/greetings/bob.txt"), encoding: .utf8)
        #expect(ann == "hello ann\n")
        #expect(bob == "hello bob\n")
        #expect(result.stderr.contains("5 ok in "))
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("out/greetings").path)
        #expect(leftovers.sorted() == ["ann.txt", "bob.txt"])
    }

    @Test func failureShowsStderrTailSkipsDependentsAndExitsOne() async throws {
        let directory = try fixtureDirectory(["failing.yaml"])
        let result = try await TaskGraphProcess.run(["run", "failing.yaml", "--output", "out"], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("FAILED    broken: 'sh' exited with status 3: first line | disk on fire\n"))
        #expect(result.stderr.contains("skipped   after-broken: 'broken' failed\n"))
        #expect(result.stderr.contains("1 ok, 1 failed, 1 skipped in "))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/never.txt").path))
    }

    @Test func invalidPipelineRunsNothing() async throws {
        let directory = try fixtureDirectory(["broken.yaml"])
        let result = try await TaskGraphProcess.run(["run", "broken.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("4 errors in 1 of 1 file: invalid\n"))
    }

    @Test func dryRunPrintsThePlanByLevel() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let result = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--dry-run", "--output", "/tmp/x"], in: directory)
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                plan: 5 operations in 3 levels
                level 1:
                  greet[ann]  (exec, command=[sh, -c, printf 'hello %s\\n' "$0", ann], grace_period=2s)
                    run (not cacheable: exec declares no inputs or outputs; set cache: true to reuse it)
                  greet[bob]  (exec, command=[sh, -c, printf 'hello %s\\n' "$0", bob], grace_period=2s)
                    run (not cacheable: exec declares no inputs or outputs; set cache: true to reuse it)
                level 2:
                  keep[ann]  (save, path=greetings/ann.txt)
                    run (input changed: greet[ann])
                  keep[bob]  (save, path=greetings/bob.txt)
                    run (input changed: greet[bob])
                level 3:
                  all  (group)
                    run (input changed: keep[ann])
                5 to run, 0 cached

                """)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/x/greetings"))
    }

    @Test func onlyRunsTheNamedOperationsAndTheirDependencies() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let result = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--only", "keep[bob]", "--output", "out"], in: directory)
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/greetings/bob.txt").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/greetings/ann.txt").path))
    }

    @Test func graphRendersDotAndMermaid() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let dot = try await TaskGraphProcess.run(["graph", "hello.yaml"], in: directory)
        #expect(dot.status == 0)
        #expect(dot.stdout.contains("  n2 -> n0;\n"))
        let mermaid = try await TaskGraphProcess.run(["graph", "hello.yaml", "--format", "mermaid"], in: directory)
        #expect(mermaid.stdout.hasPrefix("flowchart LR\n"))
        #expect(mermaid.stdout.contains("  n4 --> n2\n  n4 --> n3\n"))
    }

    @Test func listOpsShowsEveryTypeAndParameter() async throws {
        let result = try await TaskGraphProcess.run(["list-ops"], in: try fixtureDirectory())
        #expect(result.status == 0)
        for name in ["exec:", "group:", "load:", "save:", "  command: list of strings (required)"] {
            #expect(result.stdout.contains(name))
        }
    }
}
