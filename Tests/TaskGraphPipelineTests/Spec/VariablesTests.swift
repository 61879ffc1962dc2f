import OperationTestSupport
import Testing

@testable import TaskGraphCore

@Suite struct VariablesTests {
    @Test func substitutesVariablesEnvironmentAndItems() throws {
        let graph = try plannedGraph(
            """
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
        let graph = try plannedGraph(
            """
            version: 1
            vars: {names: [ann], suffix: x}
            operations:
              say: {foreach: "${names}", op: exec, command: [echo, "${item}${suffix}"]}
            """, variables: ["names": "c,d", "suffix": "!"])
        #expect(graph.nodes.map(\.id) == ["say[c]", "say[d]"])
        #expect(graph.nodes[0].parameters.list("command") == ["echo", "c!"])
    }

    @Test func undefinedVariablesAreErrorsAtTheirColumn() {
        #expect(
            diagnostics(
                """
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
        #expect(
            diagnostics(
                """
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

/// Variables a hostile or careless pipeline writes: nesting too deep for a stack, values that
/// double at every level, `--var` names and lists that would be silently misread.
@Suite struct VariableBoundsTests {
    @Test func aTwentyThousandDeepChainIsALocatedErrorNotACrash() {
        var lines = ["version: 1", "vars:"]
        for index in 0..<19_999 { lines.append("  v\(index): \"${v\(index + 1)}\"") }
        lines += ["  v19999: end", "operations:", "  x: {op: exec, command: [echo, \"${v0}\"]}"]
        #expect(
            diagnostics(lines.joined(separator: "\n")) == [
                "test.yaml:102:9: error: variables nest more than 100 deep, from 'v0' to 'v100'"
            ])
    }

    @Test func aHundredDeepChainResolves() throws {
        var lines = ["version: 1", "vars:"]
        for index in 0..<99 { lines.append("  v\(index): \"${v\(index + 1)}\"") }
        lines += ["  v99: end", "operations:", "  x: {op: exec, command: [echo, \"${v0}\"]}"]
        let graph = try plannedGraph(lines.joined(separator: "\n"))
        #expect(graph.nodes[0].parameters.list("command") == ["echo", "end"])
    }

    @Test func valuesThatDoubleAtEveryLevelStopAtTheLengthLimit() {
        var lines = ["version: 1", "vars:"]
        for index in 0..<40 { lines.append("  v\(index): \"${v\(index + 1)}${v\(index + 1)}\"") }
        lines += ["  v40: abcdefgh", "operations:", "  x: {op: exec, command: [echo, \"${v0}\"]}"]
        let found = diagnostics(lines.joined(separator: "\n"))
        #expect(found == ["test.yaml:21:15: error: substituting '${v19}' makes a value longer than 16777216 bytes"])
    }

    @Test func aMisspeltVarIsAnErrorWithASuggestion() {
        #expect(
            diagnostics(
                """
                version: 1
                vars: {names: [ann]}
                operations:
                  x: {op: exec, foreach: "${names}", command: [echo, "${item}"]}
                """, variables: ["nmaes": "zed"]) == [
                    "--var nmaes:1:1: error: the pipeline declares no variable 'nmaes' under 'vars'; did you mean "
                        + "'names'?"
                ])
    }

    @Test func anEmptyListItemIsRefusedAndAnEmptyValueIsAnEmptyList() throws {
        let yaml = """
            version: 1
            vars: {names: [ann]}
            operations:
              x: {op: exec, foreach: "${names}", command: [echo, "${item}"]}
            """
        #expect(
            diagnostics(yaml, variables: ["names": "ann,,bob"]) == [
                "--var names:1:1: error: 'ann,,bob' has an empty item; a list variable takes comma-separated items, "
                    + "none empty"
            ])
        #expect(try plannedGraph(yaml, variables: ["names": ""]).nodes.isEmpty)
    }
}
