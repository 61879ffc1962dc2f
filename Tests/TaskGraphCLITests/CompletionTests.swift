import Foundation
import Testing

/// The generated completion scripts complete operation ids of the pipeline file on the line
/// (targets, `--force`, `--only`, `explain`'s ids): the bash script, run in bash.
@Suite struct CompletionTests {
    /// What bash offers for each of `lines` (each completed at its end), in `directory`: the
    /// completion function is called as bash calls it on TAB, with COMP_WORDS, COMP_CWORD,
    /// COMP_LINE and COMP_POINT set; the program is the built taskgraph.
    private func completions(_ lines: [String], in directory: URL) async throws -> [[String]] {
        let script = try await TaskGraphProcess.run(["--generate-completion-script", "bash"], in: directory)
        #expect(script.status == 0)
        try write(script.stdout, to: "taskgraph.bash", in: directory)
        let driver = """
            source taskgraph.bash
            program="$0"
            for line in "$@"; do
                COMP_LINE="$program $line"
                COMP_POINT=${#COMP_LINE}
                read -ra COMP_WORDS <<< "$COMP_LINE"
                [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                COMPREPLY=()
                _taskgraph taskgraph "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}" --
            done
            """
        let result = try await TaskGraphProcess.run(
            ["-c", driver, TaskGraphProcess.binary.path] + lines, in: directory,
            executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        return result.stdout.split(separator: "--\n", omittingEmptySubsequences: false).dropLast().map { answer in
            answer.split(separator: "\n").map(String.init)
        }
    }

    @Test func bashCompletesOperationIDsOfTheFileOnTheLine() async throws {
        let directory = try fixtureDirectory(["build.yaml", "hello.yaml"])
        let offered = try await completions(
            [
                "run build.yaml ",
                "run build.yaml --force ",
                "run build.yaml --force l",
                "run build.yaml --only te",
                "run build.yaml link test[",
                "explain build.yaml --force=compile d",
                "run --var names=x,y hello.yaml greet[",
                "run missing.yaml --force ",
            ], in: directory)
        #expect(
            offered == [
                ["compile", "link", "test", "docs"],
                ["compile", "link", "test", "docs"],
                ["link"],
                ["test"],
                ["test[unit]", "test[smoke]"],
                ["docs"],
                ["greet[x]", "greet[y]"],
                [],
            ])
    }
}
