import Foundation
import Testing

/// `include:` as a user meets it: validating and running a pipeline split into files.
@Suite struct IncludeCommandTests {
    private static let template = """
        version: 1
        vars:
          name: copy
        operations:
          read:
            op: load
            path: data/in.txt
          keep:
            op: save
            needs: read
            path: ${name}.txt
        """

    private func pipelineDirectory() throws -> URL {
        let directory = try fixtureDirectory()
        for folder in ["lib", "data"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try write("hello\n", to: "data/in.txt", in: directory)
        try write(Self.template, to: "lib/copy.yaml", in: directory)
        return directory
    }

    /// Paths in an included file start at the pipeline file's directory, as if written there.
    @Test func runsOneTemplateTwiceWithItsPathsFromThePipelineFile() async throws {
        let directory = try pipelineDirectory()
        try write(
            """
            version: 1
            include:
              first: lib/copy.yaml
              second: {file: lib/copy.yaml, vars: {name: other}}
            operations:
              all:
                op: group
                needs: [first.keep, second.keep]
            """, to: "pipeline.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "pipeline.yaml", "--output", "out", "--no-progress"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(of: "out/copy.txt", in: directory) == ["hello"])
        #expect(lines(of: "out/other.txt", in: directory) == ["hello"])
    }

    /// Neither the plan kept for a command nor the up-to-date shortcut hides an edit of an
    /// included file: they rest on the pipeline file alone, so a pipeline with includes is read
    /// in full every time.
    @Test func anEditedIncludedFileIsSeenByTheNextRun() async throws {
        let directory = try pipelineDirectory()
        try write("version: 1\ninclude:\n  first: lib/copy.yaml\n", to: "pipeline.yaml", in: directory)
        let arguments = ["run", "pipeline.yaml", "--output", "out", "--no-progress"]
        let environment = ["TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("cache").path]
        for _ in 0..<2 {
            let result = try await TaskGraphProcess.run(arguments, in: directory, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            // Files changed within the file system's timestamp granularity are not trusted by `stat`.
            try await Task.sleep(for: .milliseconds(2_200))
        }
        try write(
            Self.template.replacingOccurrences(of: "name: copy", with: "name: edited"), to: "lib/copy.yaml",
            in: directory)
        let result = try await TaskGraphProcess.run(arguments, in: directory, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(of: "out/edited.txt", in: directory) == ["hello"])
    }

    @Test func validateNamesTheIncludedFileOfEachMistake() async throws {
        let directory = try pipelineDirectory()
        try write(
            Self.template.replacingOccurrences(of: "path: data/in.txt", with: "path: data/none.txt"),
            to: "lib/copy.yaml", in: directory)
        try write(
            """
            version: 1
            include:
              first: lib/copy.yaml
              loop: {file: pipeline.yaml}
            operations:
              all: {op: group, needs: first.kept}
            """, to: "pipeline.yaml", in: directory)
        let result = try await TaskGraphProcess.run(["validate", "pipeline.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                lib/copy.yaml:7:11: error: operation 'first.read': 'path' names 'data/none.txt', which does not exist
                pipeline.yaml:4:16: error: include cycle: pipeline.yaml -> pipeline.yaml
                pipeline.yaml:4:16: note: 'pipeline.yaml' includes 'pipeline.yaml' here
                pipeline.yaml:6:27: error: operation 'all' needs 'first.kept', which does not exist; did you mean\
                 'first.keep'?
                3 errors in 1 of 1 file: invalid

                """)
        try write("version: 1\ninclude:\n  first: lib/copy.yaml\n", to: "pipeline.yaml", in: directory)
        let missing = try await TaskGraphProcess.run(["validate", "pipeline.yaml"], in: directory)
        #expect(
            missing.stderr == """
                lib/copy.yaml:7:11: error: operation 'first.read': 'path' names 'data/none.txt', which does not exist
                1 error in 1 of 1 file: invalid

                """)
    }
}
