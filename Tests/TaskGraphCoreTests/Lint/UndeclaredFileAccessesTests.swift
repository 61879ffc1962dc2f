import Foundation
import Testing

@testable import TaskGraphCore

/// Which traced accesses `run --lint` reports, and the exact messages.
@Suite struct UndeclaredFileAccessesTests {
    private let rules = UndeclaredFileAccesses.Rules(
        pipelineDirectory: "/p", outputDirectory: "/o", readable: ["/p/in.txt", "/p/out.txt", "/o/made.txt"],
        writable: ["/p/out.txt"], ignored: ["/p/tool"])

    private func accesses(_ records: [String], directories: Set<String> = []) -> UndeclaredFileAccesses {
        let trace = FileAccessTrace(records: Data(records.map { $0 + "\0" }.joined().utf8), canonical: { $0 })
        return UndeclaredFileAccesses(trace, rules: rules) { directories.contains($0) }
    }

    @Test func onlyUndeclaredFilesUnderThePipelineOrOutputDirectoryCount() {
        let found = accesses(
            [
                "r/p/in.txt", "r/p/src/z.h", "r/p/src/a.h", "r/usr/include/stdio.h", "r/p/tool", "r/p/src",
                "r/pother/x",
                "r/o/made.txt", "r/o/stale.txt", "w/p/out.txt", "w/o/extra.txt", "w/tmp/cc1.s", "r/p/src/a.h",
            ],
            directories: ["/p/src"])
        #expect(found.reads == ["/o/stale.txt", "src/a.h", "src/z.h"])
        #expect(found.writes == ["/o/extra.txt"])
    }

    @Test func messagesNameWhereTheFilesAreDeclaredOrTheOperation() {
        let found = accesses(["r/p/src/a.h", "w/p/log.txt"])
        let at = { (line: Int, column: Int) in SourceLocation(file: "build.yaml", line: line, column: column) }
        #expect(
            found.messages(
                operation: "compile[util]",
                declarations: .init(inputs: at(9, 13), outputs: nil, operation: at(5, 3))) == [
                    "lint: compile[util] read src/a.h, which it does not declare (inputs: at build.yaml:9:13)",
                    "lint: compile[util] wrote log.txt, which it does not declare (no outputs: in the operation at "
                        + "build.yaml:5:3)",
                ])
        #expect(
            found.messages(operation: "coded", declarations: .init()) == [
                "lint: coded read src/a.h, which it does not declare",
                "lint: coded wrote log.txt, which it does not declare",
            ])
    }

    @Test func aDeclaredOutputMayBeReadAndNothingFoundIsEmpty() {
        #expect(accesses(["r/p/out.txt", "w/p/out.txt", "r/p/in.txt"]).isEmpty)
    }
}
