import Foundation
import Testing

/// Where a run writes, checked before anything runs: an `--output` that is a file, a `--trace`
/// that is a directory or lies in a missing one, a symbolic link out of the output directory,
/// and misspelt names on the command line.
@Suite struct RunDestinationsTests {
    private static let usage = "Usage: taskgraph <subcommand>\n  See 'taskgraph --help' for more information.\n"

    /// Runs `hello.yaml` with `arguments` and expects it refused with `message` before any
    /// operation ran.
    private func expectRefused(_ arguments: [String], _ message: String, in directory: URL) async throws {
        let result = try await TaskGraphProcess.run(["run", "hello.yaml"] + arguments, in: directory)
        #expect(result.status == 64)
        #expect(result.stderr == "Error: \(message)\n" + Self.usage)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
    }

    @Test func anOutputThatIsAFileIsRefusedUpFront() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let file = directory.appendingPathComponent("taken").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        try await expectRefused(
            ["--output", "taken"], "cannot use output directory '\(file)': Not a directory", in: directory)
        try await expectRefused(
            ["--output", "taken/sub"], "cannot use output directory '\(file)/sub': '\(file)' is not a directory",
            in: directory)
    }

    @Test func aTraceThatIsADirectoryOrInAMissingOneIsRefusedLikeEvents() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("traces"), withIntermediateDirectories: true)
        try await expectRefused(["--trace", "traces"], "--trace: 'traces' is a directory", in: directory)
        try await expectRefused(
            ["--trace", "missing/t.json"], "--trace: directory 'missing' does not exist", in: directory)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing").path))
    }

    @Test func aMisspeltOnlyGetsASuggestionAndAnOperationNameSelectsItsInstances() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        try await expectRefused(
            ["--only", "kep"], "--only: no operation 'kep' in the pipeline; did you mean 'keep'?", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--only", "keep", "--output", "out"], in: directory)
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/greetings/ann.txt").path))
    }

    /// Replaces `out/greetings` in `directory` with a link to a new directory outside, runs
    /// `hello.yaml` (with `environment`), and expects both saves refused and nothing written there.
    private func expectSavesRefusedThroughALink(in directory: URL, environment: [String: String?] = [:]) async throws {
        let elsewhere = try fixtureDirectory()
        let link = directory.appendingPathComponent("out/greetings").path
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: elsewhere.path)
        let result = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--no-progress"], in: directory, environment: environment)
        #expect(result.status == 1)
        for name in ["ann", "bob"] {
            #expect(
                result.stderr.contains(
                    "FAILED    keep[\(name)]: cannot write '\(link)/\(name).txt': '\(link)' is a symbolic link; "
                        + "paths in the output directory may not pass through one\n"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == [])
    }

    @Test func aLinkOutOfTheOutputDirectoryFailsTheSaveAndWritesNothingThere() async throws {
        try await expectSavesRefusedThroughALink(in: try fixtureDirectory(["hello.yaml"]))
    }

    @Test func aCachedSaveIsNotRestoredThroughALinkPlacedSince() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let cache = ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path]
        let first = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--no-progress"], in: directory, environment: cache)
        #expect(first.status == 0)
        try await expectSavesRefusedThroughALink(in: directory, environment: cache)
    }

    @Test func controlCharactersInFileNamesAreEscapedInTheLogAndSummary() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let result = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out", "--no-progress", "--var", "names=a\u{1B}[2J,b\nc"], in: directory)
        #expect(result.status == 0)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.contains(#"ok        keep[a\u{1B}[2J]"#))
        #expect(result.stderr.contains(#"keep[b\nc]"#))
    }
}
