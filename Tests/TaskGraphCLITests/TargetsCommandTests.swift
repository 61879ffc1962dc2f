import Foundation
import Testing

/// make's habits on `run`: operation ids after the file are targets, `--force ID` re-runs an
/// operation and its dependents, `-n` is `--dry-run`, `-j2` is `-j 2` (build.yaml: compile ->
/// link -> test[unit], test[smoke]; docs beside them).
@Suite struct TargetsCommandTests {
    private static let usage = "Usage: taskgraph <subcommand>\n  See 'taskgraph --help' for more information.\n"

    /// A copy of build.yaml with a store of its own, shared by the runs of one test.
    private struct Build {
        let directory: URL
        let cache: [String: String?]

        init() throws {
            directory = try fixtureDirectory(["build.yaml"])
            cache = ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path]
        }

        func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await TaskGraphProcess.run(["run", "build.yaml"] + arguments, in: directory, environment: cache)
        }

        /// The operations a plain run with `arguments` started.
        func started(_ arguments: [String]) async throws -> Set<String> {
            let result = try await run(arguments + ["--no-progress", "-j1"])
            #expect(result.status == 0, "\(result.stderr)")
            return Set(
                result.stderr.split(separator: "\n").compactMap { line in
                    line.firstMatch(of: #/^\[ *[0-9.]+s\] start +(\S+) \(exec\)$/#).map { String($0.1) }
                })
        }
    }

    /// The dry run of build.yaml with these lines under its five operations, in plan order.
    private static func plan(_ compile: String, _ docs: String, _ link: String, _ unit: String, _ smoke: String)
        -> String
    {
        let cached = [compile, docs, link, unit, smoke].filter { $0 == "cached" }.count
        return """
            plan: 5 operations in 3 levels
            level 1:
              compile  (exec, command=[sh, -c, echo compiled], grace_period=2s)
                \(compile)
              docs  (exec, command=[sh, -c, echo docs], grace_period=2s)
                \(docs)
            level 2:
              link  (exec, command=[sh, -c, echo linked], grace_period=2s)
                \(link)
            level 3:
              test[unit]  (exec, command=[sh, -c, echo $0 passed, unit], grace_period=2s)
                \(unit)
              test[smoke]  (exec, command=[sh, -c, echo $0 passed, smoke], grace_period=2s)
                \(smoke)
            \(5 - cached) to run, \(cached) cached

            """
    }

    @Test func idsAfterTheFileRunThoseOperationsAndWhatTheyNeed() async throws {
        let build = try Build()
        #expect(try await build.started(["link"]) == ["compile", "link"])
        #expect(try await build.started(["test[smoke]", "docs"]) == ["test[smoke]", "docs"])
        // --only, the older spelling, still selects the same way (test[smoke] is stored now).
        #expect(try await build.started(["--only", "test"]) == ["test[unit]"])
    }

    @Test func dryRunSaysWhatWouldRunAndWhyAndWhatIsCached() async throws {
        let build = try Build()
        let first = try await build.run(["-n"])
        #expect(first.status == 0)
        #expect(
            first.stdout
                == Self.plan(
                    "run (new)", "run (new)", "run (input changed: compile)", "run (input changed: link)",
                    "run (input changed: link)"))
        #expect(try await build.started(["link"]) == ["compile", "link"])
        let second = try await build.run(["--dry-run"])
        #expect(second.stdout == Self.plan("cached", "run (new)", "cached", "run (new)", "run (new)"))
        #expect(second.stderr == "")
    }

    @Test func forceWithIDsRerunsThoseAndTheirDependents() async throws {
        let build = try Build()
        #expect(try await build.started([]) == ["compile", "docs", "link", "test[unit]", "test[smoke]"])
        let plan = try await build.run(["-n", "--force", "link", "--force=docs"])
        #expect(
            plan.stdout
                == Self.plan(
                    "cached", "run (forced)", "run (forced)", "run (input changed: link)", "run (input changed: link)"))
        let explained = try await TaskGraphProcess.run(
            ["explain", "build.yaml", "test", "--force", "link"], in: build.directory, environment: build.cache)
        #expect(
            explained.stdout == """
                test[unit]: run: input changed: link <- forced in link
                test[smoke]: run: input changed: link <- forced in link

                """)
        #expect(try await build.started(["--force", "link"]) == ["link", "test[unit]", "test[smoke]"])
        #expect(try await build.started([]) == [])
    }

    @Test func bareForceRerunsEverythingWhereverItIsWritten() async throws {
        let build = try Build()
        _ = try await build.started([])
        // What a forced operation's dependents would do is explained by their input's change.
        let everything = Self.plan(
            "run (forced)", "run (forced)", "run (input changed: compile)", "run (input changed: link)",
            "run (input changed: link)")
        for arguments in [["--force", "-n"], ["-n", "--force"]] {
            #expect(try await build.run(arguments).stdout == everything)
        }
        // Before the file, --force does not take the pipeline file for an id.
        let before = try await TaskGraphProcess.run(
            ["run", "--force", "build.yaml", "-n"], in: build.directory, environment: build.cache)
        #expect(before.stdout == everything)
    }

    @Test func idsBeforeABareForceGetANoteWithTheNewSpelling() async throws {
        let build = try Build()
        _ = try await build.started([])
        let result = try await build.run(["link", "--force", "-n"])
        #expect(result.status == 0)
        #expect(
            result.stderr == """
                taskgraph: note: ids after the file name are what to run: with a bare --force, link and everything \
                it needs run again; to run again only link and what depends on it, write --force link

                """)
        #expect(
            result.stdout == """
                plan: 2 operations in 2 levels
                level 1:
                  compile  (exec, command=[sh, -c, echo compiled], grace_period=2s)
                    run (forced)
                level 2:
                  link  (exec, command=[sh, -c, echo linked], grace_period=2s)
                    run (input changed: compile)
                2 to run, 0 cached

                """)
    }

    @Test func anUnknownTargetOrForcedIDIsAUsageErrorWithASuggestion() async throws {
        let build = try Build()
        let target = try await build.run(["lnk"])
        #expect(target.status == 64)
        #expect(target.stderr == "Error: no operation 'lnk' in the pipeline; did you mean 'link'?\n" + Self.usage)
        let forced = try await build.run(["--force", "tests"])
        #expect(forced.status == 64)
        #expect(
            forced.stderr == "Error: --force: no operation 'tests' in the pipeline; did you mean 'test'?\n" + Self.usage
        )
    }

    @Test func jobsTakeTheirValueJoinedAsMakeDoes() async throws {
        let build = try Build()
        let refused = try await build.run(["-j0"])
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("Error: --jobs must be at least 1\n"))
        let result = try await build.run(["-j2", "--no-progress"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("5 ok in "))
    }
}
