import Foundation
import Testing

@Suite struct ValidateCommandTests {
    @Test func validFileExitsZero() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let result = try await TaskGraphProcess.run(["validate", "hello.yaml"], in: directory)
        #expect(result.status == 0)
        #expect(result.stderr == "1 file valid\n")
    }

    @Test func everyProblemOfEveryFileInOnePass() async throws {
        let directory = try fixtureDirectory(["hello.yaml", "broken.yaml"])
        let result = try await TaskGraphProcess.run(["validate", "hello.yaml", "broken.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                broken.yaml:6:14: error: operation 'fetch': 'timeout' must be a duration such as 30s, 500ms or 2m, not\
                 'soon'
                broken.yaml:9:13: error: operation 'tone' needs 'fetc', which does not exist; did you mean 'fetch'?
                broken.yaml:10:11: error: operation 'tone': 'path' must be a relative path that stays inside the\
                 output directory, not '../outside.txt'
                broken.yaml:13:12: error: dependency cycle: loop-a -> loop-b -> loop-a
                broken.yaml:13:12: note: 'loop-a' needs 'loop-b' here
                broken.yaml:16:12: note: 'loop-b' needs 'loop-a' here
                4 errors in 1 of 2 files: invalid

                """)
    }

    @Test func everyMistakeInAnExecsEntriesAtItsPlace() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: bad
            operations:
              build:
                op: exec
                command: [make]
                env:
                  "A=B": x
                  GOOD: y
                  "": z
                env_passthrough: [OK, "X=Y", ""]
                outputs: [ok.txt, ../outside.txt, /abs.txt]
            """, to: "bad.yaml", in: directory)
        let result = try await TaskGraphProcess.run(["validate", "bad.yaml"], in: directory)
        #expect(result.status == 2)
        let name = "which is not an environment variable name (non-empty, without '=' or NUL)"
        let outside = "which is not a relative path inside the pipeline file's directory"
        #expect(
            result.stderr == """
                bad.yaml:8:7: error: operation 'build': 'env' names 'A=B', \(name)
                bad.yaml:10:7: error: operation 'build': 'env' names '', \(name)
                bad.yaml:11:27: error: operation 'build': 'env_passthrough' names 'X=Y', \(name)
                bad.yaml:11:34: error: operation 'build': 'env_passthrough' names '', \(name)
                bad.yaml:12:23: error: operation 'build': 'outputs' holds '../outside.txt', \(outside)
                bad.yaml:12:39: error: operation 'build': 'outputs' holds '/abs.txt', \(outside)
                6 errors in 1 of 1 file: invalid

                """)
    }

    @Test func defaultsToEveryPipelineUnderPipelinesFolder() async throws {
        let directory = try fixtureDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("pipelines"), withIntermediateDirectories: true)
        try write("version: 1\noperations:\n  a: {op: group}\n", to: "pipelines/a.yaml", in: directory)
        try write("version: 1\noperations:\n  b: {op: grop}\n", to: "pipelines/b.yml", in: directory)
        let result = try await TaskGraphProcess.run(["validate"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                pipelines/b.yml:3:11: error: operation 'b': unknown operation type 'grop'; did you mean 'group'?
                1 error in 1 of 2 files: invalid

                """)
    }

    @Test func missingFile() async throws {
        let result = try await TaskGraphProcess.run(["validate", "nope.yaml"], in: try fixtureDirectory())
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                nope.yaml:1:1: error: cannot read 'nope.yaml': No such file or directory
                1 error in 1 of 1 file: invalid

                """)
    }

    @Test func usageErrorsExit64() async throws {
        let result = try await TaskGraphProcess.run(["run", "x.yaml", "--jobs", "0"], in: try fixtureDirectory())
        #expect(result.status == 64)
        #expect(result.stderr.contains("--jobs must be at least 1"))
    }
}
