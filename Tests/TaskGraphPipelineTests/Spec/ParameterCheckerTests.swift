import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// Values a hostile or careless pipeline writes: NUL characters that would cut an argument,
/// path or environment value short, output paths that name a directory, huge values echoed in
/// messages, merge keys that would be dropped.
@Suite struct ParameterCheckerTests {
    @Test func aNULCharacterIsRefusedInArgumentsEnvironmentAndPaths() {
        #expect(
            diagnostics(
                #"""
                version: 1
                operations:
                  e: {op: exec, command: [echo, "x\0y"], env: {A: "a\0"}}
                  l: {op: load, path: "in\0.txt"}
                """#) == [
                    #"test.yaml:3:33: error: operation 'e': 'command' must not contain a NUL character ('\0')"#,
                    #"test.yaml:3:51: error: operation 'e': 'env': 'A' must not contain a NUL character ('\0')"#,
                    #"test.yaml:4:23: error: operation 'l': 'path' must not contain a NUL character ('\0')"#,
                ])
    }

    @Test func anOutputPathEndingInASlashIsRefused() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  g: {op: exec, command: [echo]}
                  s: {op: save, needs: [g], path: "reports/"}
                """) == [
                    "test.yaml:4:35: error: operation 's': 'path' must be a relative path that stays inside the output "
                        + "directory, "
                        + "not 'reports/' (a file's path, which cannot end in '/')"
                ])
    }

    @Test func aHugeValueIsQuotedCutInMessages() {
        let huge = String(repeating: "x", count: 1_000_000)
        let found = diagnostics("version: 1\noperations:\n  a: {op: exec, command: [echo], retries: \"\(huge)\"}\n")
        #expect(
            found == [
                "test.yaml:3:43: error: operation 'a': 'retries' must be a whole number from 0 to 100, not '"
                    + String(repeating: "x", count: DisplayText.quotedLimit) + "…' (1000000 bytes)"
            ])
    }

    @Test func aHugeKeyOrVariableNameIsQuotedCutToo() {
        // libyaml allows keys of at most 1024 characters.
        let key = String(repeating: "k", count: 1000)
        let name = String(repeating: "n", count: 1_000_000)
        let prefix = { (text: String) in String(text.prefix(DisplayText.quotedLimit)) }
        #expect(
            diagnostics("version: 1\n\(key): 1\noperations:\n  a: {op: exec, command: [\"${\(name)}\"]}\n") == [
                "test.yaml:2:1: error: unknown top-level key '\(prefix(key))…' (1000 bytes)",
                "test.yaml:4:28: error: undefined variable '\(prefix(name))…' (1000000 bytes)",
            ])
    }

    @Test func controlCharactersInValuesAreEscapedInMessages() {
        #expect(
            diagnostics("version: 1\noperations:\n  a: {op: exec, command: [echo], retries: \"\\e[2J\\n\"}\n") == [
                #"test.yaml:3:43: error: operation 'a': 'retries' must be a whole number from 0 to 100, not "#
                    + #"'\u{1B}[2J\n'"#
            ])
    }

    @Test func aMergeKeyIsRefusedByName() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  a:
                    <<: {op: exec}
                    op: exec
                    command: [echo, hi]
                """) == [
                    "test.yaml:4:5: error: YAML merge keys ('<<') are not supported; write the keys out, or put shared "
                        + "settings under 'defaults'"
                ])
    }
}
