import Foundation
import Testing

/// Results small enough for their record to hold (docs/cache.md, "Records"): no blob of their
/// own, and read from the record, or from the up-to-date snapshot, by what needs them.
extension CachedExecTests {
    @Test func aSmallResultIsHeldByItsRecordAndReadFromThereByWhatRunsAfterAHit() async throws {
        let directory = try fixtureDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = """
            version: 1
            name: held
            operations:
              greet: {op: exec, command: [sh, -c, 'echo hello; echo ran >> runs.log'], cache: true}
              shout: {op: exec, needs: greet, stdin: true, inputs: [extra.txt], command: [sh, -c, 'tr a-z A-Z; cat\
             extra.txt']}
              keep: {op: save, needs: shout, path: shout.txt}
            """
        try write(pipeline, to: "held.yaml", in: directory)
        try write("1\n", to: "extra.txt", in: directory)
        let cache = directory.appendingPathComponent("cache")
        let first = try await TaskGraphProcess.run(
            ["run", "held.yaml", "--no-progress", "--output", "out"], in: directory,
            environment: ["TASKGRAPH_CACHE_DIR": cache.path])
        #expect(first.status == 0, "\(first.stderr)")
        // The one blob is the saved file's: every result is in its record.
        let blobs = try FileManager.default.subpathsOfDirectory(atPath: cache.path + "/v1/blobs")
            .filter { $0.count == 67 }
        #expect(blobs.count == 1)
        #expect(try String(contentsOfFile: cache.path + "/v1/blobs/" + blobs[0], encoding: .utf8) == "HELLO\n1\n")

        // Only extra.txt changed: greet is settled from the up-to-date snapshot, shout reads its
        // result from there. Then the pipeline file changed (no snapshot): from greet's record.
        for (edit, expected) in [("2\n", "HELLO\n2\n"), ("3\n", "HELLO\n3\n")] {
            try write(edit, to: "extra.txt", in: directory)
            if edit == "3\n" { try write(pipeline + "\n# changed\n", to: "held.yaml", in: directory) }
            let again = try await TaskGraphProcess.run(
                ["run", "held.yaml", "--no-progress", "--explain", "--output", "out"], in: directory,
                environment: ["TASKGRAPH_CACHE_DIR": cache.path])
            #expect(
                again.stdout == """
                    greet: cached
                    shout: run: file changed: extra.txt
                    keep: run: input changed: shout <- file changed: extra.txt in shout

                    """, "\(again.stderr)")
            #expect(!again.stderr.contains("warning"), "\(again.stderr)")
            #expect(
                try String(contentsOf: directory.appendingPathComponent("out/shout.txt"), encoding: .utf8) == expected)
        }
        #expect(lines(of: "runs.log", in: directory).count == 1)
    }
}
