import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// Every core operation's action is cacheable, each type with its own version; `load` keys the
/// file it reads and `save` declares the file it writes.
@Suite struct CoreCacheableTests {
    @Test func everyCoreActionIsCacheableAtItsVersion() throws {
        // `save` is at 2 since bytes are converted to the format its path names, `exec` at 3 since
        // it runs in the pipeline file's directory without `cwd:` (2: its result holds its
        // declared outputs).
        let versions = ["group": 1, "exec": 3, "load": 1, "save": 2]
        let required: [String: [String: ParameterValue]] = [
            "exec": ["command": .list(["true"])], "load": ["path": .string("in.txt")],
            "save": ["path": .string("out.txt")],
        ]
        let types = CoreOperations.types()
        #expect(types.map(\.name) == ["group", "exec", "load", "save"])
        for type in types {
            let action = try makeOperationAction(type, required[type.name] ?? [:])
            let cacheable = try #require(action as? any CacheableAction, "\(type.name)")
            #expect(cacheable.cacheVersion == versions[type.name], "\(type.name)")
        }
    }

    @Test func loadKeysItsPathAndTheContentsOfItsFileUnderThePathAsWritten() async throws {
        let directory = try makeScratchDirectory()
        try Data("first".utf8).write(to: directory.appendingPathComponent("in.txt"))
        let action = try #require(
            try makeOperationAction(
                LoadOperation.type, ["path": .string("./in.txt")], directory: directory.path) as? any CacheableAction)
        let key = try await addedKeyComponents(of: action)
        let path = "path=\(directory.path)/in.txt"
        #expect(key.lines == [path, "file../in.txt=\(ContentDigest.sha256(of: Data("first".utf8)))"])
        try Data("second".utf8).write(to: directory.appendingPathComponent("in.txt"))
        #expect(
            try await addedKeyComponents(of: action).lines == [
                path, "file../in.txt=\(ContentDigest.sha256(of: Data("second".utf8)))",
            ])
        #expect(action.outputFiles == [])
    }

    @Test func aMissingLoadedFileFailsAtKeyTime() async throws {
        let directory = try makeScratchDirectory()
        let action = try #require(
            try makeOperationAction(
                LoadOperation.type, ["path": .string("gone.txt")], directory: directory.path) as? any CacheableAction)
        await #expect(
            throws: OperationError.readFailed(path: directory.path + "/gone.txt", reason: "No such file or directory")
        ) {
            try await addedKeyComponents(of: action)
        }
    }

    @Test func saveDeclaresTheFileItWrites() async throws {
        let action = try #require(
            try makeOperationAction(
                SaveOperation.type(), ["path": .string("a/out.txt")], directory: "/tmp/run") as? any CacheableAction)
        #expect(action.outputFiles == ["/tmp/run/a/out.txt"])
        #expect(try await addedKeyComponents(of: action).lines == [])
    }
}
