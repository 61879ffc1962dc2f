import OperationTestSupport
import Testing

@testable import TaskGraphCore

@Suite struct PipelineLoaderTests {
    @Test func validPipelineHasNoDiagnostics() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  hello:
                    op: exec
                    command: [echo, hi]
                """) == [])
    }

    @Test func emptyFile() {
        #expect(diagnostics("  \n") == ["test.yaml:1:1: error: the pipeline file is empty"])
    }

    @Test func documentThatIsNotAMapping() {
        #expect(
            diagnostics("- a\n- b\n") == [
                "test.yaml:1:1: error: a pipeline file must be a mapping with 'version' and 'operations', not a list"
            ])
    }

    @Test func yamlSyntaxErrorCarriesLibyamlPosition() {
        #expect(
            diagnostics("version: 1\noperations: [a, b\n") == [
                "test.yaml:3:1: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence "
                    + "at line 2, column 13)"
            ])
    }

    @Test func tabsInIndentation() {
        #expect(
            diagnostics("version: 1\noperations:\n\thello:\n\t  op: group\n") == [
                "test.yaml:3:1: error: tab character in indentation; YAML indents with spaces only",
                "test.yaml:4:1: error: tab character in indentation; YAML indents with spaces only",
            ])
    }

    @Test func duplicateKeys() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a:
                    op: group
                  a:
                    op: group
                """) == ["test.yaml:5:3: error: duplicate key 'a' in the same mapping (first at line 3)"])
    }

    @Test func unsupportedAndMissingVersion() {
        #expect(
            diagnostics("version: 2\noperations:\n  a: {op: group}\n") == [
                "test.yaml:1:10: error: unsupported version '2'; this taskgraph reads version 1"
            ])
        #expect(
            diagnostics("operations:\n  a: {op: group}\n") == [
                "test.yaml:1:1: error: missing required key 'version' (write 'version: 1')"
            ])
    }

    @Test func unknownKeysWithSuggestions() {
        #expect(
            diagnostics(
                """
                version: 1
                opertions:
                  a: {op: group}
                """) == [
                    "test.yaml:1:1: error: missing required key 'operations'",
                    "test.yaml:2:1: error: unknown top-level key 'opertions'; did you mean 'operations'?",
                ])
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a:
                    op: exec
                    comand: [ls]
                    retires: 2
                """) == [
                    "test.yaml:4:9: error: operation 'a': missing required parameter 'command' for 'exec'",
                    "test.yaml:5:5: error: operation 'a': unknown key 'comand' for 'exec'; did you mean 'command'?",
                    "test.yaml:6:5: error: operation 'a': unknown key 'retires' for 'exec'; did you mean 'retries'?",
                ])
    }

    @Test func unknownOperationType() {
        #expect(
            diagnostics("version: 1\noperations:\n  a:\n    op: grup\n") == [
                "test.yaml:4:9: error: operation 'a': unknown operation type 'grup'; did you mean 'group'?"
            ])
    }

    @Test func wrongTypesAndRanges() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a:
                    op: exec
                    command: echo
                    timeout: soon
                    retries: 1000
                """) == [
                    "test.yaml:5:14: error: operation 'a': 'command' must be a list of strings, not 'echo'",
                    "test.yaml:6:14: error: operation 'a': 'timeout' must be a duration such as 30s, 500ms or 2m, "
                        + "not 'soon'",
                    "test.yaml:7:14: error: operation 'a': 'retries' must be a whole number from 0 to 100, not '1000'",
                ])
    }

    @Test func booleansAreTrueOrFalse() {
        let flagged = OperationType(
            name: "flagged", summary: "Has a boolean parameter.",
            parameters: [ParameterSpec("verbose", .boolean, default: .boolean(false), "A flag.")],
            makeAction: { _ in ClosureAction { _ in EmptyResult() } })
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a: {op: flagged, verbose: maybe}
                  b: {op: flagged, verbose: yes}
                """, registry: OperationRegistry([flagged])) == [
                    "test.yaml:3:29: error: operation 'a': 'verbose' must be true or false, not 'maybe'"
                ])
    }

    @Test func savePathMayNotEscapeOutputDirectory() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  src: {op: load, path: in.txt}
                  out:
                    op: save
                    needs: src
                    path: ../../etc/passwd
                """) == [
                    "test.yaml:7:11: error: operation 'out': 'path' must be a relative path that stays inside the "
                        + "output directory, not '../../etc/passwd'"
                ])
    }

    @Test func aliasBombIsRefusedQuickly() {
        var yaml = "version: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 {
            let references = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            yaml += "a\(level): &a\(level) [\(references)]\n"
        }
        yaml += "operations:\n  a: {op: group}\n"
        let start = ContinuousClock.now
        let result = diagnostics(yaml)
        #expect(ContinuousClock.now - start < .seconds(15)) // hang guard; bench times it
        #expect(
            result == [
                "test.yaml:1:1: error: YAML aliases expand to more than 15510 nodes; refusing to read an alias bomb"
            ])
    }

    @Test func deepNestingIsRefusedBeforeParsing() {
        let deep = "version: 1\nx: " + String(repeating: "[", count: 100_000) + "\noperations: {a: {op: group}}\n"
        #expect(diagnostics(deep) == ["test.yaml:2:204: error: YAML nests deeper than 200 levels; refusing to read it"])
        let indented = "version: 1\n" + String(repeating: " ", count: 5000) + "x: 1\n"
        #expect(
            diagnostics(indented) == ["test.yaml:2:1601: error: YAML nests deeper than 200 levels; refusing to read it"]
        )
    }

    @Test func operationIDsAreChecked() {
        #expect(
            diagnostics("version: 1\noperations:\n  \"a b\": {op: group}\n") == [
                "test.yaml:3:3: error: invalid operation id 'a b'; use letters, digits, '-', '_' and '.'"
            ])
    }
}
