import Foundation
import Testing

/// Results and output files small enough for their record to hold (docs/cache.md, "Records"): no
/// blob of their own, and read from the record, or from the up-to-date snapshot, by what needs
/// them; an output file restored from its record's bytes.
extension CachedExecTests {
    /// The blobs or records (`kind`) of the store at `cache`.
    private func storeFiles(in cache: URL, _ kind: String) -> [String] {
        // A store with no blob has no blobs directory.
        ((try? FileManager.default.subpathsOfDirectory(atPath: cache.path + "/v1/" + kind)) ?? []).filter {
            $0.count == 67
        }
    }

    @Test func aSmallOutputIsHeldByItsRecordRestoredFromItAndRunAgainWhenItsBytesAreDamaged() async throws {
        let directory = try fixtureDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try write(
            """
            version: 1
            name: sums
            operations:
              small: {op: exec, command: [sh, -c, 'md5sum in.txt > small.txt; echo small >> runs.log'], \
            inputs: [in.txt], outputs: [small.txt]}
              exact: {op: exec, command: [sh, -c, 'head -c 1024 /dev/zero > exact.txt'], outputs: [exact.txt]}
              over: {op: exec, command: [sh, -c, 'head -c 1025 /dev/zero > over.txt'], outputs: [over.txt]}
            """, to: "sums.yaml", in: directory)
        try write("one\n", to: "in.txt", in: directory)
        let cache = directory.appendingPathComponent("cache")
        let cold = try await TaskGraphProcess.run(
            ["run", "sums.yaml", "--no-progress"], in: directory, environment: ["TASKGRAPH_CACHE_DIR": cache.path])
        #expect(cold.status == 0, "\(cold.stderr)")
        // One file per operation, its record, and a blob for the output of 1 KiB + 1 alone.
        #expect(storeFiles(in: cache, "records").count == 3)
        let blobs = storeFiles(in: cache, "blobs")
        #expect(blobs.count == 1)
        #expect(try Data(contentsOf: cache.appendingPathComponent("v1/blobs/" + blobs[0])) == Data(count: 1025))

        let small = try Data(contentsOf: directory.appendingPathComponent("small.txt"))
        for name in ["small.txt", "exact.txt", "over.txt"] {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        let restored = try await TaskGraphProcess.run(
            ["run", "sums.yaml", "--no-progress", "--explain"], in: directory,
            environment: ["TASKGRAPH_CACHE_DIR": cache.path])
        #expect(
            restored.stdout == """
                small: cached: output missing: small.txt (restored)
                exact: cached: output missing: exact.txt (restored)
                over: cached: output missing: over.txt (restored)

                """, "\(restored.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("small.txt")) == small)
        #expect(try Data(contentsOf: directory.appendingPathComponent("exact.txt")) == Data(count: 1024))
        #expect(try Data(contentsOf: directory.appendingPathComponent("over.txt")) == Data(count: 1025))

        // The held bytes damaged in small's record: no record, so small runs again.
        for name in storeFiles(in: cache, "records") {
            let url = cache.appendingPathComponent("v1/records/" + name)
            var bytes = try Data(contentsOf: url)
            guard let range = bytes.firstRange(of: small) else { continue }
            bytes[range.lowerBound] ^= 1
            try bytes.write(to: url)
        }
        try FileManager.default.removeItem(at: directory.appendingPathComponent("small.txt"))
        let damaged = try await TaskGraphProcess.run(
            ["run", "sums.yaml", "--no-progress", "--explain"], in: directory,
            environment: ["TASKGRAPH_CACHE_DIR": cache.path])
        #expect(damaged.status == 0, "\(damaged.stderr)")
        #expect(damaged.stdout.hasPrefix("small: run: "), "\(damaged.stdout)")
        #expect(lines(of: "runs.log", in: directory).count == 2)
        #expect(try Data(contentsOf: directory.appendingPathComponent("small.txt")) == small)
    }

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
        // No blob: every result, and the saved file, is in its record.
        #expect(storeFiles(in: cache, "blobs").isEmpty)

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
