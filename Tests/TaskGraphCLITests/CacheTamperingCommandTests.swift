import Foundation
import Testing

/// `taskgraph cache` on a store that was damaged or tampered with: a symbolic link where the
/// store has a directory is never followed (the user's files it points to stay), and a cache
/// directory that is a file is an error, not an empty store.
@Suite struct CacheTamperingCommandTests {
    /// Sets the modification time of the file at `path` to 30 days ago.
    private func backdate(_ path: String) {
        let time = timespec(tv_sec: Int(Date().timeIntervalSince1970) - 30 * 86_400, tv_nsec: 0)
        utimensat(AT_FDCWD, path, [time, time], 0)
    }

    @Test func gcAndVerifyDoNotFollowLinksInsideTheStore() async throws {
        let directory = try fixtureDirectory(["hello.yaml"])
        let cache = directory.path + "/cache"
        let environment: [String: String?] = ["TASKGRAPH_CACHE_DIR": cache]
        let run = try await TaskGraphProcess.run(
            ["run", "hello.yaml", "--output", "out"], in: directory, environment: environment)
        #expect(run.status == 0)
        let outside = directory.path + "/documents"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let userFiles = [outside + "/thesis.txt", outside + "/" + String(repeating: "ab", count: 32)]
        for file in userFiles {
            try Data("the user's own work".utf8).write(to: URL(fileURLWithPath: file))
            backdate(file)
        }
        try? FileManager.default.removeItem(atPath: cache + "/v1/tmp")
        try FileManager.default.createSymbolicLink(atPath: cache + "/v1/tmp", withDestinationPath: outside)
        // hello.yaml's results and files are held by their records: the store made no blobs directory.
        try FileManager.default.createDirectory(atPath: cache + "/v1/blobs", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: cache + "/v1/blobs/zz", withDestinationPath: outside)
        let warnings = [cache + "/v1/tmp", cache + "/v1/blobs/zz"].map {
            "taskgraph: warning: \($0) is a symbolic link inside the cache: not followed, nothing under it was "
                + "touched\n"
        }.joined()
        let gc = try await TaskGraphProcess.run(
            ["cache", "gc", "--max-age", "0d"], in: directory, environment: environment)
        #expect(gc.status == 0)
        #expect(gc.stderr == warnings)
        let verify = try await TaskGraphProcess.run(["cache", "verify"], in: directory, environment: environment)
        #expect(verify.status == 0)
        #expect(verify.stderr == warnings)
        #expect(userFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    @Test func aCacheDirectoryThatIsAFileIsAnError() async throws {
        let directory = try fixtureDirectory()
        try Data("my notes".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        for command in ["status", "gc", "verify", "clear"] {
            let result = try await TaskGraphProcess.run(["cache", command, "--cache-dir", "notes.txt"], in: directory)
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "taskgraph: error: cannot read the cache at \(directory.path)/notes.txt: Not a directory\n")
            #expect(result.stdout == "")
        }
        #expect(try String(contentsOf: directory.appendingPathComponent("notes.txt"), encoding: .utf8) == "my notes")
    }
}
