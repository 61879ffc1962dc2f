import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// What an `exec` program sees of the pipeline's environment: `env:`, over the passed-through
/// variables and those named in `env_passthrough`, and nothing else.
@Suite struct ExecEnvironmentTests {
    private static let environment = [
        "PATH": "/usr/bin:/bin", "HOME": "/home/me", "LANG": "C.UTF-8",
        "PASSED": "yes", "UNDECLARED": "secret",
    ]

    @Test func theProgramSeesOnlyItsDeclaredEnvironment() async throws {
        let graph = try plannedGraph(
            """
            version: 1
            operations:
              show:
                op: exec
                command: [env]
                env_passthrough: [PASSED, ABSENT]
                env: {HOME: /override, SET: here}
            """, environment: Self.environment)
        #expect(
            graph.nodes[0].setup?.environment == [
                "PATH": "/usr/bin:/bin", "HOME": "/home/me", "LANG": "C.UTF-8", "PASSED": "yes",
            ])
        let lines = try await outputText(of: "show", runningGraph: graph)?.split(separator: "\n").sorted()
        #expect(lines == ["HOME=/override", "LANG=C.UTF-8", "PASSED=yes", "PATH=/usr/bin:/bin", "SET=here"])
    }

    @Test func aPassedThroughVariableIsSeenAndAnUndeclaredOneIsNot() async throws {
        let graph = try plannedGraph(
            """
            version: 1
            operations:
              show: {op: exec, command: [sh, -c, 'echo "$PASSED:$UNDECLARED:$HOME"'], env_passthrough: [PASSED]}
            """, environment: Self.environment)
        #expect(try await outputText(of: "show", runningGraph: graph) == "yes::/home/me\n")
    }

    @Test func nothingOfTaskgraphsOwnEnvironmentLeaksIn() async throws {
        #expect(!ProcessInfo.processInfo.environment.isEmpty)
        let graph = try plannedGraph(
            """
            version: 1
            operations:
              show: {op: exec, command: [env], env_passthrough: [PATH, HOME]}
            """, environment: [:])
        #expect(graph.nodes[0].setup?.environment == [:])
        #expect(try await outputText(of: "show", runningGraph: graph) == "")
    }

    @Test func variableNamesAreChecked() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a: {op: exec, command: [env], env_passthrough: [GOOD, "A=B"]}
                  b: {op: exec, command: [env], env: {"": x}}
                  c: {op: exec, command: [env], env_passthrough: PATH}
                """) == [
                    "test.yaml:3:57: error: operation 'a': 'env_passthrough' names 'A=B', which is not an environment "
                        + "variable name (non-empty, without '=' or NUL)",
                    "test.yaml:4:39: error: operation 'b': 'env' names '', which is not an environment variable name "
                        + "(non-empty, without '=' or NUL)",
                    "test.yaml:5:50: error: operation 'c': 'env_passthrough' must be a list of strings, not 'PATH'",
                ])
    }

    @Test func inheritEnvIsRefusedWithWhatToWriteInstead() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a:
                    op: exec
                    command: [env]
                    inherit_env: true
                """) == [
                    "test.yaml:6:5: error: operation 'a': 'inherit_env' is no longer supported for 'exec': the "
                        + "program sees "
                        + "only 'env' and HOME, LANG, LC_ALL, LC_CTYPE, PATH, TERM, TMPDIR, TZ, USER from taskgraph's "
                        + "environment; name any other variable it needs in 'env_passthrough'"
                ])
    }
}
