import Foundation
import Testing

/// `taskgraph list` (`ls`): a pipeline's operations, as `task --list` and `just --list`.
@Suite struct ListCommandTests {
    @Test func listShowsEachOperationsTypeInstancesAndDescription() async throws {
        let directory = try fixtureDirectory(["build.yaml"])
        let expected = """
            compile  exec               Compile the sources.
            link     exec               Link the program.
            test     exec  2 instances  Run each test suite.
            docs     exec

            """
        for command in ["list", "ls"] {
            let result = try await TaskGraphProcess.run([command, "build.yaml"], in: directory)
            #expect(result.status == 0)
            #expect(result.stdout == expected)
            #expect(result.stderr == "")
        }
    }

    @Test func instancesFollowTheVariables() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let result = try await TaskGraphProcess.run(["list", "hello.yaml", "--var", "names=a,b,c"], in: directory)
        #expect(
            result.stdout == """
                greet  exec   3 instances
                keep   save   3 instances
                all    group

                """)
        let none = try await TaskGraphProcess.run(["list", "hello.yaml", "--var", "names="], in: directory)
        #expect(none.stdout == "greet  exec   0 instances\nkeep   save   0 instances\nall    group\n")
    }
}
