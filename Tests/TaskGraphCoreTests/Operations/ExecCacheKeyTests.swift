import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// What an `exec` adds to its cache key: the program it starts (path and digest) and the contents
/// of the files its `inputs:` name.
@Suite struct ExecCacheKeyTests {
    private let directory: URL

    init() throws {
        directory = try makeScratchDirectory()
        try write("#!/bin/sh\necho tool\n", to: "bin/tool")
        chmod(directory.appendingPathComponent("bin/tool").path, 0o755)
    }

    private func write(_ text: String, to path: String) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func digest(_ text: String) -> String {
        ContentDigest.sha256(of: Data(text.utf8)).description
    }

    /// An `exec` of `command` with `parameters`, its PATH the scratch directory's `bin`.
    private func exec(
        _ command: [String], _ parameters: [String: ParameterValue] = [:]
    ) throws -> any CacheableAction {
        var values = parameters
        values["command"] = .list(command)
        let action = try makeOperationAction(
            ExecOperation.type, values, directory: directory.path,
            environment: ["PATH": directory.path + "/bin:/usr/bin:/bin"])
        return try #require(action as? any CacheableAction)
    }

    /// A program beneath the pipeline file's directory enters relative to it (keys travel
    /// between checkouts); one elsewhere by its absolute path.
    @Test func theProgramEntersByPathAndDigest() async throws {
        let key = try await addedKeyComponents(of: try exec(["tool", "--flag"]))
        #expect(key.lines == ["program=bin/tool \(digest("#!/bin/sh\necho tool\n"))"])
        try write("#!/bin/sh\necho tool 2\n", to: "bin/tool")
        let changed = try await addedKeyComponents(of: try exec(["tool", "--flag"]))
        #expect(changed.lines == ["program=bin/tool \(digest("#!/bin/sh\necho tool 2\n"))"])
        let system = try await addedKeyComponents(of: try exec(["/bin/sh", "-c", "true"]))
        #expect(system.lines.first?.hasPrefix("program=/bin/sh sha256:") == true)
    }

    @Test func aProgramWithASlashStartsFromTheWorkingDirectory() async throws {
        let key = try await addedKeyComponents(of: try exec(["./tool"], ["cwd": .string("bin")]))
        #expect(key.lines == ["program=bin/tool \(digest("#!/bin/sh\necho tool\n"))"])
        let absolute = try await addedKeyComponents(of: try exec([directory.path + "/bin/tool"]))
        #expect(absolute.lines == key.lines)
    }

    @Test func aMissingProgramFailsAtKeyTimeAsItWouldWhenRunning() async throws {
        await #expect(throws: ChildProcessError.programNotFound("no-such-tool")) {
            try await addedKeyComponents(of: try exec(["no-such-tool"]))
        }
        await #expect(throws: ChildProcessError.programNotFound("./missing")) {
            try await addedKeyComponents(of: try exec(["./missing"], ["cwd": .string("bin")]))
        }
        #expect(
            ChildProcessError.programNotFound("no-such-tool").description == "program 'no-such-tool' not found on PATH")
    }

    @Test func declaredInputsEnterByContentSortedAndOnce() async throws {
        try write("one", to: "src/1.txt")
        try write("two", to: "src/2.txt")
        try write("not text", to: "src/3.md")
        try write("a", to: "data/a.bin")
        try write("b", to: "data/deep/er/b.bin")
        try write("hidden", to: "data/.hidden")
        try write("notes", to: "notes.md")
        let action = try exec(
            ["tool"], ["inputs": .list(["src/*.txt", "notes.md", "data/**", "src/1.txt", "none/*.c"])])
        let key = try await addedKeyComponents(of: action)
        #expect(
            Array(key.lines.dropFirst()) == [
                "file.data/a.bin=\(digest("a"))",
                "file.data/deep/er/b.bin=\(digest("b"))",
                "file.notes.md=\(digest("notes"))",
                "file.src/1.txt=\(digest("one"))",
                "file.src/2.txt=\(digest("two"))",
            ])
        try write("TWO", to: "src/2.txt")
        let changed = try await addedKeyComponents(of: action)
        #expect(changed["file.src/2.txt"] == digest("TWO"))
        #expect(changed.key != key.key)
        #expect(changed["file.src/1.txt"] == key["file.src/1.txt"])
    }

    @Test func aPlainInputPathMustNameAFile() async throws {
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("src"), withIntermediateDirectories: true)
        await #expect(throws: OperationError.declaredInputMissing(operation: "op", path: "x.txt")) {
            try await addedKeyComponents(of: try exec(["tool"], ["inputs": .list(["x.txt"])]))
        }
        await #expect(throws: OperationError.declaredInputNotAFile(operation: "op", path: "src")) {
            try await addedKeyComponents(of: try exec(["tool"], ["inputs": .list(["src"])]))
        }
        #expect(
            OperationError.declaredInputMissing(operation: "build", path: "x.txt").description
                == "exec 'build': declared input 'x.txt' does not exist")
        #expect(
            OperationError.declaredInputNotAFile(operation: "build", path: "src").description
                == "exec 'build': declared input 'src' is not a file (for the files under a directory write 'src/**')")
    }

    @Test func theGracePeriodIsNotKeyedAndTheVersionIsThree() throws {
        let action = try exec(["tool"])
        #expect(action.unkeyedParameters == ["grace_period"])
        #expect(action.cacheVersion == 3)
        #expect(action.outputFiles == [])
    }
}
