import Foundation
import Testing

/// `taskgraph run` when nothing changed since the same command reused everything: confirmed
/// from `stat`s alone without reading the pipeline, and never when anything the full run would
/// look at changed.
@Suite struct UpToDateRunTests {
    private let unchanged = "nothing changed since the last run"

    private func run(_ arguments: [String], in directory: URL, environment: [String: String?] = [:]) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        var environment = environment
        environment["TASKGRAPH_CACHE_DIR"] = directory.appendingPathComponent("cache").path
        // The snapshot rests on the program search path's directories: the test's own PATH may
        // name directories other processes on the machine change (tool shims, caches), which
        // would rightly send a run down the full path.
        if environment["PATH"] == nil { environment["PATH"] = "/usr/bin:/bin" }
        let result = try await TaskGraphProcess.run(arguments, in: directory, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    /// A directory with `copy.yaml` (an `exec` copying `in.txt` to `out.txt`, logging each run
    /// to `runs.log`, and a group), run once, then, once every file is old enough for its `stat`
    /// to show any later change, run again: the next identical command takes the fast path.
    private func settledCopy(inputs: String = "[in.txt]") async throws -> URL {
        let directory = try copyFixture(inputs: inputs)
        _ = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        // Files changed within the file system's timestamp granularity are not trusted by `stat`.
        try await Task.sleep(for: .milliseconds(2_200))
        // A full run, or already the fast path when the first run started more than the racy
        // window after the files were written (a loaded machine): the tests start from either.
        _ = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        return directory
    }

    /// A directory with `copy.yaml` and `in.txt`, not run yet.
    private func copyFixture(inputs: String = "[in.txt]") throws -> URL {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: copy
            operations:
              copy:
                op: exec
                command: [sh, -c, 'cat in.txt > out.txt; echo ran >> runs.log']
                inputs: \(inputs)
                outputs: [out.txt]
              all: {op: group, needs: copy}
            """, to: "copy.yaml", in: directory)
        try write("one\n", to: "in.txt", in: directory)
        return directory
    }

    /// The first run on an empty store leaves a snapshot the next run uses: what the run changed
    /// in the store itself (the record directories it made) is no change.
    @Test func theRunAfterTheFirstOnAnEmptyStoreSaysNothingChanged() async throws {
        let directory = try copyFixture()
        // Old enough for their `stat` to show any later change, as is the executable.
        let anHourAgo = Date(timeIntervalSinceNow: -3_600)
        for name in ["copy.yaml", "in.txt"] {
            try FileManager.default.setAttributes(
                [.modificationDate: anHourAgo], ofItemAtPath: directory.appendingPathComponent(name).path)
        }
        let built =
            try FileManager.default.attributesOfItem(atPath: TaskGraphProcess.binary.path)[.modificationDate] as? Date
        if let age = built.map({ -$0.timeIntervalSinceNow }), age < 2.2 {
            try await Task.sleep(for: .seconds(2.2 - age))
        }
        let first = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(!first.stderr.contains(unchanged), "\(first.stderr)")
        let second = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(second.stderr.contains(unchanged), "\(second.stderr)")
        #expect(lines(of: "runs.log", in: directory).count == 1)
    }

    @Test func theSameCommandAgainSaysNothingChangedWithoutRunningAnything() async throws {
        let directory = try await settledCopy()
        let result = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        let shown = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            Array(shown.prefix(3)) == [
                "[    0.0s] run       2 operations", "[    0.0s] cached    2 operations: \(unchanged)", "",
            ], "\(result.stderr)")
        #expect(shown.dropFirst(3).first?.hasPrefix("2 cached in ") == true, "\(result.stderr)")
        #expect(lines(of: "runs.log", in: directory).count == 1)
        // The run counts in the store's statistics.
        let status = try await run(["cache", "status"], in: directory)
        #expect(status.stdout.contains("2 hits"), "\(status.stdout)")
    }

    @Test func aChangedInputADeletedOutputOrAnotherEnvironmentTakesTheFullRun() async throws {
        let directory = try await settledCopy()
        try FileManager.default.removeItem(at: directory.appendingPathComponent("out.txt"))
        let restored = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(!restored.stderr.contains(unchanged), "\(restored.stderr)")
        #expect(lines(of: "out.txt", in: directory) == ["one"])

        let otherEnvironment = try await run(
            ["run", "copy.yaml", "--no-progress"], in: directory, environment: ["X": "1"])
        #expect(!otherEnvironment.stderr.contains(unchanged), "\(otherEnvironment.stderr)")

        try write("two\n", to: "in.txt", in: directory)
        let changed = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(!changed.stderr.contains(unchanged), "\(changed.stderr)")
        #expect(lines(of: "runs.log", in: directory).count == 2)
        #expect(lines(of: "out.txt", in: directory) == ["two"])
    }

    /// An operation that runs again and writes a file the store already holds (its output did
    /// not change) still leaves a snapshot behind: the next identical command says nothing
    /// changed. Storing such a file without hashing it again once left none, and every later run
    /// took the full path.
    @Test func aRunWhoseOutputTheStoreAlreadyHoldsLeavesASnapshot() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: same
            operations:
              same:
                op: exec
                command: [sh, -c, 'echo same > out.txt']
                inputs: [in.txt]
                outputs: [out.txt]
            """, to: "same.yaml", in: directory)
        try write("one\n", to: "in.txt", in: directory)
        _ = try await run(["run", "same.yaml", "--no-progress"], in: directory)
        try await Task.sleep(for: .milliseconds(2_200))
        try write("two\n", to: "in.txt", in: directory)
        try await Task.sleep(for: .milliseconds(2_200))
        let changed = try await run(["run", "same.yaml", "--no-progress"], in: directory)
        #expect(changed.stderr.contains("1 ok in "), "\(changed.stderr)")
        try await Task.sleep(for: .milliseconds(2_200))
        let again = try await run(["run", "same.yaml", "--no-progress"], in: directory)
        #expect(again.stderr.contains(unchanged), "\(again.stderr)")
    }

    /// The plans the store keeps, by file name.
    private func plans(in directory: URL) -> [String: Data] {
        let plans = directory.appendingPathComponent("cache/v1/plans")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: plans.path)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.map {
                ($0, (try? Data(contentsOf: plans.appendingPathComponent($0))) ?? Data())
            })
    }

    @Test func anEditedPipelineFileIsPlannedAgainAndADamagedPlanIsReplaced() async throws {
        let directory = try await settledCopy()
        let kept = plans(in: directory)
        #expect(kept.count == 1 && kept.values.allSatisfy { $0.starts(with: Array("TGPL".utf8)) })

        // Same length, same operations: only a command changed.
        let file = directory.appendingPathComponent("copy.yaml")
        let edited = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "cat in.txt", with: "rev in.txt")
        try edited.write(to: file, atomically: false, encoding: .utf8)
        let changed = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(changed.stderr.contains("ok        copy"), "\(changed.stderr)")
        #expect(lines(of: "out.txt", in: directory) == ["eno"])
        #expect(plans(in: directory).count == 1 && plans(in: directory) != kept)

        for name in plans(in: directory).keys {
            try Data("TGPL garbage".utf8).write(to: directory.appendingPathComponent("cache/v1/plans/" + name))
        }
        try write("two\n", to: "in.txt", in: directory)
        let afterDamage = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(afterDamage.stderr.contains("ok        copy"), "\(afterDamage.stderr)")
        #expect(lines(of: "out.txt", in: directory) == ["owt"])
        #expect(plans(in: directory).values.allSatisfy { $0.count > 100 })
    }

    @Test func aRecordRemovedByVerifyOrAClearedStoreTakesTheFullRun() async throws {
        let directory = try await settledCopy()
        // A collection that removes nothing leaves the snapshot standing.
        _ = try await run(["cache", "gc"], in: directory)
        let collected = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(collected.stderr.contains(unchanged), "\(collected.stderr)")

        // `cache verify` removes a damaged record (the bytes of out.txt it holds).
        let records = directory.appendingPathComponent("cache/v1/records")
        let damaged = try #require(
            FileManager.default.enumerator(atPath: records.path)?.compactMap { $0 as? String }
                .map { records.appendingPathComponent($0) }.first {
                    !$0.hasDirectoryPath && $0.lastPathComponent.count == 64
                })
        var bytes = try Data(contentsOf: damaged)
        bytes[try #require(bytes.firstRange(of: Data("one\n".utf8))).lowerBound] ^= 1
        try bytes.write(to: damaged)
        let verified = try await run(["cache", "verify"], in: directory)
        #expect(verified.stdout.hasSuffix("removed 0 corrupt blobs and 1 record\n"), "\(verified.stdout)")
        _ = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(lines(of: "runs.log", in: directory).count == 2)

        try await Task.sleep(for: .milliseconds(2_200))
        _ = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(try await run(["run", "copy.yaml", "--no-progress"], in: directory).stderr.contains(unchanged))
        _ = try await run(["cache", "clear"], in: directory)
        let cleared = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(!cleared.stderr.contains(unchanged), "\(cleared.stderr)")
        #expect(lines(of: "runs.log", in: directory).count == 3)
    }

    @Test func aPatternInputOrAnOptionThatNeedsEventsAlwaysTakesTheFullRun() async throws {
        let directory = try await settledCopy(inputs: "['*.txt']")
        let again = try await run(["run", "copy.yaml", "--no-progress"], in: directory)
        #expect(!again.stderr.contains(unchanged), "\(again.stderr)")

        let plain = try await settledCopy()
        let explained = try await run(["run", "copy.yaml", "--no-progress", "--explain"], in: plain)
        #expect(explained.stdout == "copy: cached\nall: cached\n", "\(explained.stderr)")
        #expect(!explained.stderr.contains(unchanged), "\(explained.stderr)")
    }
}

/// A run after a change starts from the last snapshot: operations whose files are unchanged and
/// whose inputs' results are the same are reused without a key; the change still reaches every
/// operation it would in a full run, also through files written by operations that ran.
@Suite struct UpToDateChangeTests {
    private func run(_ directory: URL) async throws -> String {
        let result = try await TaskGraphProcess.run(
            ["run", "chain.yaml", "--no-progress"], in: directory,
            // PATH as UpToDateRunTests.run's, for the same reason.
            environment: [
                "TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path, "PATH": "/usr/bin:/bin",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stderr
    }

    /// A directory with `pipeline` as chain.yaml, a.txt ("one") and b.txt ("bee"), run until the
    /// same command takes the fast path: the next run after a change starts from a snapshot.
    private func settledDirectory(_ pipeline: String) async throws -> URL {
        let directory = try fixtureDirectory()
        try write(pipeline, to: "chain.yaml", in: directory)
        try write("one\n", to: "a.txt", in: directory)
        try write("bee\n", to: "b.txt", in: directory)
        _ = try await run(directory)
        try await Task.sleep(for: .milliseconds(2_200))
        _ = try await run(directory)
        #expect(try await run(directory).contains("nothing changed since the last run"))
        return directory
    }

    private func text(_ name: String, in directory: URL) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    @Test func aChangedSourceReachesEveryOperationThroughDeclaredAndUndeclaredFiles() async throws {
        // `first` copies a.txt to first.txt and also writes side.txt, undeclared; `second` reads
        // first.txt (declared), `third` reads side.txt (declared as its input only); `other`
        // stands apart. Each logs its runs.
        let directory = try await settledDirectory(
            """
            version: 1
            name: chain
            operations:
              first:
                op: exec
                command: [sh, -c, 'cat a.txt > first.txt; cat a.txt > side.txt; echo first >> runs.log']
                inputs: [a.txt]
                outputs: [first.txt]
              second:
                op: exec
                needs: first
                command: [sh, -c, 'cat first.txt > second.txt; echo second >> runs.log']
                inputs: [first.txt]
                outputs: [second.txt]
              third:
                op: exec
                needs: first
                command: [sh, -c, 'cat side.txt > third.txt; echo third >> runs.log']
                inputs: [side.txt]
                outputs: [third.txt]
              other:
                op: exec
                command: [sh, -c, 'cat b.txt > other.txt; echo other >> runs.log']
                inputs: [b.txt]
                outputs: [other.txt]
            """)

        for (round, content) in ["two\n", "three\n"].enumerated() {
            try write(content, to: "a.txt", in: directory)
            let changed = try await run(directory)
            #expect(changed.contains("3 ok, 1 cached"), "\(changed)")
            for name in ["first.txt", "second.txt", "side.txt", "third.txt"] {
                #expect(text(name, in: directory) == content, "\(name) after round \(round)")
            }
            #expect(text("other.txt", in: directory) == "bee\n")
            #expect(text("runs.log", in: directory).split(separator: "\n").filter { $0 == "other" }.count == 1)
        }
    }

    @Test func anOperationAfterOneThatRanChecksItsFilesAgainWhenReady() async throws {
        // `first` writes the same first.txt every time (its result stays the same: early
        // cut-off) and copies a.txt to side.txt, undeclared; `third` needs it and reads side.txt.
        // At the start side.txt is unchanged: only checking it again once `first` ran shows
        // that `third` must run.
        let directory = try await settledDirectory(
            """
            version: 1
            name: chain
            operations:
              first:
                op: exec
                command: [sh, -c, 'echo fixed > first.txt; cat a.txt > side.txt']
                inputs: [a.txt]
                outputs: [first.txt]
              third:
                op: exec
                needs: first
                command: [sh, -c, 'cat side.txt > third.txt']
                inputs: [side.txt]
                outputs: [third.txt]
              other:
                op: exec
                command: [sh, -c, 'cat b.txt > other.txt']
                inputs: [b.txt]
                outputs: [other.txt]
            """)

        try write("two\n", to: "a.txt", in: directory)
        let changed = try await run(directory)
        #expect(changed.contains("2 ok, 1 cached"), "\(changed)")
        #expect(text("third.txt", in: directory) == "two\n")
    }

    @Test func operationsReusedAtTheStartGiveTheirResultsToThoseThatRun() async throws {
        // `other` and `after` are unchanged with all they need: reused before anything starts.
        // `join` needs `other` and `first`, which runs.
        let directory = try await settledDirectory(
            """
            version: 1
            name: chain
            operations:
              first:
                op: exec
                command: [sh, -c, 'cat a.txt > first.txt']
                inputs: [a.txt]
                outputs: [first.txt]
              other:
                op: exec
                command: [sh, -c, 'cat b.txt > other.txt; echo other >> runs.log']
                inputs: [b.txt]
                outputs: [other.txt]
              after:
                op: exec
                needs: other
                command: [sh, -c, 'cat other.txt > after.txt; echo after >> runs.log']
                inputs: [other.txt]
                outputs: [after.txt]
              join:
                op: exec
                needs: [first, other]
                command: [sh, -c, 'cat first.txt other.txt > join.txt']
                inputs: [first.txt, other.txt]
                outputs: [join.txt]
            """)

        try write("two\n", to: "a.txt", in: directory)
        let changed = try await run(directory)
        #expect(changed.contains("\n2 ok, 2 cached in "), "\(changed)")
        // `other` and `after` were reused before the run started: one line for both.
        for line in ["cached    2 operations: unchanged since the last run", "ok        first", "ok        join"] {
            #expect(changed.contains("] \(line)\n"), "\(line): \(changed)")
        }
        #expect(!changed.contains("cached    other") && !changed.contains("cached    after"), "\(changed)")
        #expect(text("join.txt", in: directory) == "two\nbee\n")
        #expect(text("runs.log", in: directory).split(separator: "\n").sorted() == ["after", "other"])
    }
}
