import Foundation
import Testing

/// What `--help` shows: the usage and the subcommands first, the pipeline keys under
/// `help keys`, each command's own options described for it.
@Suite struct HelpTests {
    /// The help at 80 columns, whatever the terminal running the tests.
    private func help(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await TaskGraphProcess.run(arguments, in: try fixtureDirectory(), environment: ["COLUMNS": "80"])
    }

    @Test func helpStartsWithUsageAndSubcommandsAndFits40Lines() async throws {
        let expected = """
            USAGE: taskgraph <subcommand>

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              run                     Validate a pipeline file, then run its operations
                                      concurrently.
              list, ls                List a pipeline's operations: type, instances and
                                      description.
              explain                 Say, for every operation, whether a run would reuse
                                      its stored result or run it, and why.
              validate                Check pipeline files and print every problem, without
                                      running anything.
              graph                   Print the expanded operation graph as Graphviz DOT or
                                      Mermaid.
              report                  Make the HTML report of a run from its recorded
                                      events ('run --events').
              cache                   Show, collect, check or empty the cache of earlier
                                      results (docs/cache.md).
              list-ops                List every operation type with what it consumes,
                                      produces and its parameters.
              keys                    Every key a pipeline file can set (also: taskgraph
                                      help keys).
              schema                  Print a JSON Schema for pipeline files (for the YAML
                                      language server and other editors).
              worker                  Run one job of a cluster run: what `run --executor
                                      slurm` submits (docs/cluster.md).

              See 'taskgraph help <subcommand>' for detailed help.

            """
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try await help(arguments)
            #expect(result.status == 0)
            #expect(result.stdout == expected)
        }
        #expect(expected.split(separator: "\n", omittingEmptySubsequences: false).count <= 40)
    }

    @Test func helpKeysPrintsThePipelineKeysAsListOpsEndsWithThem() async throws {
        let keys = try await help(["help", "keys"])
        #expect(keys.status == 0)
        #expect(
            keys.stdout.hasPrefix(
                """
                Top-level keys:
                  version (integer): Format version; must be 1.
                  name (string): Pipeline name (default: the file name).

                """))
        #expect(
            keys.stdout.contains(
                "\nOperation keys (besides each type's parameters, which list-ops lists):\n  op (string): "))
        #expect(try await help(["keys"]).stdout == keys.stdout)
        let listOps = try await help(["list-ops"])
        #expect(listOps.stdout.contains("\nexec: "))
        #expect(listOps.stdout.hasSuffix("\n\n" + keys.stdout))
    }

    @Test func explainHelpDescribesExplain() async throws {
        let result = try await help(["explain", "--help"])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                """
                OVERVIEW: Say, for every operation, whether a run would reuse its stored result
                or run it, and why.

                Nothing runs and nothing is written: explain reads the pipeline, the files its
                operations declare and the cache, and prints one line per operation, `cached`
                or `run:` and the reason, as `run --explain` does after a run. --no-cache and
                --force explain a run with those options. An operation whose input would run is
                explained by that input's change, traced to its root cause; it may still turn
                out cached when the input's result comes out the same.

                """))
        #expect(
            result.stdout.contains(
                """
                  --no-cache              Reuse no stored result: every operation runs (its
                                          result is still recorded).
                  --force <id>            Reuse no stored result for this operation (tilt or
                                          tilt[lake]; repeatable) or what depends on it: they
                                          run again. --force alone: for every operation.

                """))
        #expect(!result.stdout.contains("--cache-max-size"))
    }
}
