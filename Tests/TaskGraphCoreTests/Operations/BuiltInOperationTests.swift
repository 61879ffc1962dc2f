import Foundation
import OperationTestSupport
import TestSupport
import Testing

@testable import TaskGraphCore

@Suite struct BuiltInOperationTests {
    private func temporaryDirectory() throws -> String {
        try ScratchDirectories.make("taskgraph-ops").path
    }

    private func bytesInput(_ text: String) -> [TaskContext.Input] {
        [TaskContext.Input(id: "source", result: BytesResult(Data(text.utf8)))]
    }

    @Test func saveWritesAtomicallyAndCreatesDirectories() async throws {
        let directory = try temporaryDirectory()
        let save = SaveOperation(
            path: directory + "/a/b/out.txt", outputDirectory: directory, format: nil, quality: 90, encoder: nil)
        let result = try await save.run(in: TaskContext(id: "save", inputs: bytesInput("hello")))
        #expect(try String(contentsOfFile: directory + "/a/b/out.txt", encoding: .utf8) == "hello")
        #expect((result as? WrittenFile)?.byteCount == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/a/b") == ["out.txt"])
    }

    @Test func saveIntoReadOnlyDirectoryFailsAndKeepsTheOldFile() async throws {
        guard getuid() != 0 else { return } // root ignores permissions
        let directory = try temporaryDirectory()
        try "old".write(toFile: directory + "/out.txt", atomically: true, encoding: .utf8)
        chmod(directory, 0o555)
        defer { chmod(directory, 0o755) }
        let save = SaveOperation(
            path: directory + "/out.txt", outputDirectory: directory, format: nil, quality: 90, encoder: nil)
        await #expect(throws: OperationError.self) {
            try await save.run(in: TaskContext(id: "save", inputs: bytesInput("new")))
        }
        #expect(try String(contentsOfFile: directory + "/out.txt", encoding: .utf8) == "old")
    }

    @Test func saveOverAFileInTheWayOfADirectoryFails() async throws {
        let directory = try temporaryDirectory()
        try "file".write(toFile: directory + "/blocker", atomically: true, encoding: .utf8)
        let save = SaveOperation(
            path: directory + "/blocker/out.txt", outputDirectory: directory, format: nil, quality: 90, encoder: nil)
        do {
            _ = try await save.run(in: TaskContext(id: "save", inputs: bytesInput("x")))
            Issue.record("expected a failure")
        } catch let error as OperationError {
            #expect(
                error.description
                    == "cannot write '\(directory)/blocker/out.txt': '\(directory)/blocker' is not a directory")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["blocker"])
    }

    @Test func saveWithoutInputNamesWhatIsMissing() async throws {
        let save = SaveOperation(
            path: "/tmp/never-written", outputDirectory: "/tmp", format: nil, quality: 90, encoder: nil)
        do {
            _ = try await save.run(in: TaskContext(id: "save[x]"))
            Issue.record("expected a failure")
        } catch let error as OperationError {
            #expect(error.description == "'save[x]' received no input providing bytes")
        }
    }

    @Test func loadReadsBytesAndReportsMissingFiles() async throws {
        let directory = try temporaryDirectory()
        try "content".write(toFile: directory + "/in.txt", atomically: true, encoding: .utf8)
        let loaded = try await LoadOperation(path: directory + "/in.txt", writtenPath: "in.txt").run(
            in: TaskContext(id: "load"))
        #expect((loaded as? LoadedFile)?.data == Data("content".utf8))
        do {
            _ = try await LoadOperation(path: directory + "/missing.txt", writtenPath: "missing.txt").run(
                in: TaskContext(id: "load"))
            Issue.record("expected a failure")
        } catch let error as OperationError {
            #expect(error.description == "cannot read '\(directory)/missing.txt': No such file or directory")
        }
    }

    @Test func execCapturesOutputAndFailsWithStderrTail() async throws {
        let environment = ProcessInfo.processInfo.environment
        let output = try await runOperation(
            ExecOperation.type, ["command": .list(["echo", "hi"])], environment: environment)
        #expect((output as? ProcessOutput)?.data == Data("hi\n".utf8))
        let failing = ["sh", "-c", "echo one >&2; echo two >&2; echo three >&2; echo four >&2; exit 4"]
        do {
            _ = try await runOperation(ExecOperation.type, ["command": .list(failing)], environment: environment)
            Issue.record("expected a failure")
        } catch let error as OperationError {
            #expect(error.description == "'sh' exited with status 4: two | three | four")
        }
    }

    @Test func outputPathsMayNotEscape() {
        #expect(OutputPath.isContained("a/b.txt"))
        #expect(OutputPath.isContained("a/../b.txt"))
        #expect(!OutputPath.isContained("../b.txt"))
        #expect(!OutputPath.isContained("a/../../b.txt"))
        #expect(!OutputPath.isContained("/etc/passwd"))
        #expect(!OutputPath.isContained("."))
        #expect(!OutputPath.isContained(""))
        #expect(OutputPath.isContained("./a//b.txt"))
        #expect(OutputPath.isContained("...") && OutputPath.isContained("..x/y"))
        #expect(!OutputPath.isContained("a/./.."))
    }
}
