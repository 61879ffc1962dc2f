import Testing
@testable import TaskGraphCore
import OperationTestSupport

@Suite struct VariablesTests {
    @Test func substitutesVariablesEnvironmentAndItems() throws {
        let graph = try plannedGraph("""
            version: 1
            vars:
              greeting: hello
              message: ${greeting} world
              names: [ann, bob]
            operations:
              say:
                foreach: ${names}
                op: exec
                command: [echo, "${message}", "${item}", "${env.HOME}", "$${literal}"]
            """)
        #expect(graph.nodes.map(\.id) == ["say[ann]", "say[bob]"])
        #expect(graph.nodes[1].parameters.list("command") == ["echo", "hello world", "bob", "/home/me", "${literal}"])
    }

    @Test func commandLineOverridesVariablesAndSplitsLists() throws {
        let graph = try plannedGraph("""
            version: 1
            vars: {names: [ann], suffix: x}
            operations:
              say: {foreach: "${names}", op: exec, command: [echo, "${item}${suffix}"]}
            """, variables: ["names": "c,d", "suffix": "!"])
        #expect(graph.nodes.map(\.id) == ["say[c]", "say[d]"])
        #expect(graph.nodes[0].parameters.list("command") == ["echo", "c!"])
    }

    @Test func undefinedVariablesAreErrorsAtTheirColumn() {
        #expect(diagnostics("""
            version: 1
            vars: {names: [a]}
            operations:
              a:
                op: exec
                command: [echo, "x ${nope}", "${item}", "${env.MISSING}", "${names}"]
            """) == [
            "test.yaml:6:24: error: undefined variable 'nope'",
            "test.yaml:6:35: error: '${item}' is only defined in an operation with 'foreach'",
            "test.yaml:6:46: error: environment variable 'MISSING' is not set",
            "test.yaml:6:64: error: variable 'names' is a list; use it on its own, as in 'foreach: ${names}'",
        ])
    }

    @Test func selfReferentialVariable() {
        #expect(diagnostics("""
            version: 1
            vars: {a: "${a}"}
            operations:
              x: {op: exec, command: ["${a}"]}
            """) == ["test.yaml:2:12: error: variable 'a' refers to itself"])
    }

    @Test func durations() {
        #expect(DurationParser.parse("30s") == .seconds(30))
        #expect(DurationParser.parse("250ms") == .milliseconds(250))
        #expect(DurationParser.parse("1h30m") == .seconds(5400))
        #expect(DurationParser.parse("1.5") == .milliseconds(1500))
        #expect(DurationParser.parse("soon") == nil)
        #expect(DurationParser.parse("") == nil)
        #expect(DurationParser.parse("-3s") == nil)
        #expect(DurationParser.format(.seconds(90)) == "90s")
        #expect(DurationParser.format(.seconds(120)) == "2m")
        #expect(DurationParser.format(.milliseconds(1500)) == "1500ms")
    }
}
