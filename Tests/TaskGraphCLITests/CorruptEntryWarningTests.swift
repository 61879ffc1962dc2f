import Foundation
import TaskGraphCore
import Testing

/// A damaged blob is reported in every mode, once (README: `corrupt cache entry …,
/// recomputed`), not only under `--explain`.
@Suite struct CorruptEntryWarningTests {
    @Test func aDamagedOutputBlobIsReportedInThePlainLogOnce() async throws {
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            operations:
              make:
                op: exec
                command: [sh, -c, 'yes made | head -n 400 > made.txt']
                outputs: [made.txt]
            """, to: "make.yaml", in: directory)
        let environment: [String: String?] = ["TASKGRAPH_CACHE_DIR": directory.path + "/cache"]
        let first = try await TaskGraphProcess.run(
            ["run", "make.yaml", "--no-progress"], in: directory, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        // 2,000 bytes: more than a record holds itself (`ActionRecord.inlineLimit`), so a blob.
        let made = String(repeating: "made\n", count: 400)
        let digest = ContentDigest.sha256(of: Data(made.utf8))
        let blob = directory.path + "/cache/v1/blobs/" + digest.hex.prefix(2) + "/" + digest.hex
        #expect(FileManager.default.fileExists(atPath: blob))
        try Data("tampered\n".utf8).write(to: URL(fileURLWithPath: blob))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("made.txt"))
        let second = try await TaskGraphProcess.run(
            ["run", "make.yaml", "--no-progress"], in: directory, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let warning = "warning   make: corrupt cache entry \(digest), recomputed\n"
        #expect(second.stderr.components(separatedBy: warning).count == 2, "\(second.stderr)")
        #expect(try String(contentsOf: directory.appendingPathComponent("made.txt"), encoding: .utf8) == made)
    }
}
