import Foundation
import Testing

/// Messages a new user met, each saying what to do (issue: "exec steps and a command line that
/// feel like home").
@Suite struct NewUserMessagesTests {
    @Test func anUnquotedVariableInsideBracketsGetsAHintToQuoteIt() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            operations:
              greet:
                foreach: [ann, bob]
                op: exec
                command: [echo, ${item}]
            """, to: "hello.yaml", in: directory)
        let result = try await TaskGraphProcess.run(["validate", "hello.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                hello.yaml:6:22: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence\
                 at line 6, column 14); inside [ … ] a value with ${…} must be quoted: write "${item}"
                1 error in 1 of 1 file: invalid

                """)
    }

    @Test func needsNamingAnInstanceSaysHowInstancesPair() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            operations:
              c: {op: exec, foreach: [a, b], command: [echo, "${item}"]}
              d: {op: group, needs: "c[a]"}
            """, to: "pairs.yaml", in: directory)
        let result = try await TaskGraphProcess.run(["validate", "pairs.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                pairs.yaml:4:25: error: operation 'd' needs 'c[a]', which does not exist; 'needs' takes operation ids,\
                 not instances: write 'c'. Two operations with 'foreach' pair item by item (x[a] needs c[a]); one\
                 without 'foreach' needs every instance
                1 error in 1 of 1 file: invalid

                """)
    }

    @Test func aWrongVarIsAUsageErrorNamingTheOption() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        for command in ["run", "validate"] {
            let result = try await TaskGraphProcess.run([command, "hello.yaml", "--var", "nmes=x"], in: directory)
            #expect(result.status == 64)
            #expect(
                result.stderr.hasPrefix(
                    "Error: --var nmes=x: the pipeline declares no variable 'nmes' under 'vars'; did you mean "
                        + "'names'?\n"
                ),
                "\(result.stderr)")
        }
    }

    @Test func aReportIntoAMissingDirectoryExitsOne() async throws {
        let directory = try fixtureDirectory()
        try write("{\"event\":\"run_started\"}\n", to: "run.jsonl", in: directory)
        let result = try await TaskGraphProcess.run(
            ["report", "run.jsonl", "-o", "/nonexistent/x.html"], in: directory)
        #expect(result.status == 1)
        #expect(
            result.stderr == "taskgraph: cannot write the report: --output: directory '/nonexistent' does not exist\n")
    }

    @Test func aCollectionThatRemovesNothingSaysWhy() async throws {
        let directory = try fixtureDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("cache"), withIntermediateDirectories: true)
        let result = try await TaskGraphProcess.run(
            ["cache", "gc", "--cache-dir", "cache", "--max-size", "1MB"], in: directory,
            environment: ["XDG_CONFIG_HOME": directory.path + "/config"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                removed 0 records, 0 blobs and 0 temporary files: 0 B -> 0 B
                nothing to remove: 0 B is within the bound of 1.0 MB, and entries written or used in the last 10\
                 minutes are kept always (a run may be using them)

                """)
    }

    @Test func aCacheDirectoryThatDoesNotExistIsAnError() async throws {
        let result = try await TaskGraphProcess.run(
            ["cache", "status", "--cache-dir", "/nonexistent"], in: try fixtureDirectory())
        #expect(result.status == 1)
        #expect(result.stderr == "taskgraph: error: --cache-dir: no cache directory at '/nonexistent'\n")
        #expect(result.stdout == "")
    }
}
