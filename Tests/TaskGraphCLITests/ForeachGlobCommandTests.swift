import Foundation
import Testing

/// `foreach: {glob: …}` and `{matrix: …}` through the command line: what `validate` prints, and
/// runs that follow the files of a folder.
@Suite struct ForeachGlobCommandTests {
    /// A directory with `photos/a.txt`, `photos/b.txt` and `folder.yaml`: an `exec` per file
    /// (logging its id to `runs.log`) in two sizes by matrix, and a fan-in.
    private func folder() throws -> URL {
        let directory = try fixtureDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)
        for name in ["a", "b"] { try write("\(name)\n", to: "photos/\(name).txt", in: directory) }
        try write(
            """
            version: 1
            operations:
              copy:
                foreach: {glob: "photos/*.txt"}
                op: exec
                command: [sh, -c, 'cp "$0" "$1"; echo "copy $1" >> runs.log', "${item}", "out-${item.stem}.txt"]
                inputs: ["${item}"]
                outputs: ["out-${item.stem}.txt"]
              size:
                foreach: {matrix: {file: {glob: "photos/*.txt"}, size: [1, 2]}}
                op: exec
                needs: copy
                command: [sh, -c, 'echo "size $0" >> runs.log', "${item}"]
                cache: true
              all: {op: group, needs: size}
            """, to: "folder.yaml", in: directory)
        return directory
    }

    @Test func validateSaysWhichAxisPairedAndWhatMatchedNothing() async throws {
        let directory = try folder()
        let valid = try await TaskGraphProcess.run(["validate", "folder.yaml"], in: directory)
        #expect(valid.status == 0)
        #expect(
            valid.stderr == """
                folder.yaml:12:12: note: operation 'size' pairs with 'copy' on axis 'file'
                1 file valid

                """)
        for name in ["a", "b"] {
            try FileManager.default.removeItem(at: directory.appendingPathComponent("photos/\(name).txt"))
        }
        let empty = try await TaskGraphProcess.run(["validate", "folder.yaml"], in: directory)
        #expect(empty.status == 2)
        #expect(
            empty.stderr == """
                folder.yaml:4:21: error: operation 'copy': foreach glob 'photos/*.txt' matches no file
                folder.yaml:10:37: error: operation 'size': foreach glob 'photos/*.txt' matches no file
                2 errors in 1 of 1 file: invalid

                """)
    }

    @Test func aNewFileRunsOnlyItsInstancesAndARemovedOneDisappears() async throws {
        let directory = try folder()
        let environment = ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path]
        let arguments = ["run", "folder.yaml", "--no-progress"]
        let first = try await TaskGraphProcess.run(arguments, in: directory, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            Set(lines(of: "runs.log", in: directory)) == [
                "copy out-a.txt", "copy out-b.txt", "size a,1", "size a,2", "size b,1", "size b,2",
            ])
        try FileManager.default.removeItem(at: directory.appendingPathComponent("runs.log"))
        try write("c\n", to: "photos/c.txt", in: directory)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("photos/a.txt"))
        let second = try await TaskGraphProcess.run(arguments, in: directory, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Set(lines(of: "runs.log", in: directory)) == ["copy out-c.txt", "size c,1", "size c,2"])
        let plan = try await TaskGraphProcess.run(
            ["run", "folder.yaml", "--dry-run"], in: directory, environment: environment)
        #expect(!plan.stdout.contains("[a"), "\(plan.stdout)")
        #expect(plan.stdout.contains("size[c,2]"), "\(plan.stdout)")
    }
}
