import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// An `exec` run under the file-access tracer, outside the engine: the files of a needed
/// result that is a `ProducedFilesProvider` may be read, and `--lint=error` fails on the rest.
@Suite struct ExecLintTests {
    /// A result standing for files written beside it, as an `exec` with `outputs:` will.
    private struct Generated: ProducedFilesProvider {
        var producedFiles: [String]
        var summary: String { "\(producedFiles.count) files" }
        static let kind = "test.generated"
        func serialized() -> Data { Data(producedFiles.joined(separator: "\0").utf8) }
        init(producedFiles: [String]) { self.producedFiles = producedFiles }
        init(serialized payload: Data) {
            producedFiles = String(decoding: payload, as: UTF8.self).split(separator: "\0").map(String.init)
        }
    }

    /// The tracer library the build puts beside the test products.
    private static let tracer = Bundle.main.bundleURL.appendingPathComponent(FileAccessLint.tracerLibraryName).path

    @Test(.enabled(if: FileManager.default.fileExists(atPath: tracer), "the tracer library was not built"))
    func filesOfANeededProducedFilesProviderMayBeReadTheRestFail() async throws {
        let directory = try makeScratchDirectory()
        try Data("made\n".utf8).write(to: directory.appendingPathComponent("made.txt"))
        try Data("stray\n".utf8).write(to: directory.appendingPathComponent("stray.txt"))
        let action = try makeOperationAction(
            ExecOperation.type, ["command": .list(["cat", "made.txt", "stray.txt"]), "cwd": .string(".")],
            directory: directory.path, environment: ["PATH": "/usr/bin:/bin"])
        let resources = RunResources(
            fileAccessLint: FileAccessLint(mode: .error, tracerLibrary: Self.tracer, graph: ExecutionGraph()))
        let inputs = [TaskContext.Input(id: "gen", result: Generated(producedFiles: [directory.path + "/made.txt"]))]
        await #expect(
            throws: OperationError.undeclaredFileAccess(["lint: op read stray.txt, which it does not declare"])
        ) {
            try await action.run(in: TaskContext(id: "op", inputs: inputs, resources: resources))
        }
        let both = [
            TaskContext.Input(
                id: "gen",
                result: Generated(producedFiles: [directory.path + "/made.txt", directory.path + "/stray.txt"]))
        ]
        let output = try await action.run(in: TaskContext(id: "op", inputs: both, resources: resources))
        #expect((output as? ProcessOutput)?.data == Data("made\nstray\n".utf8))
        await resources.shutDown()
    }
}
