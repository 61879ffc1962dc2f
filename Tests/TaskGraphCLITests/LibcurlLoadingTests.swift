import Foundation
import Testing

/// libcurl, and the thirty-odd libraries it needs, are mapped only by a run that may transfer
/// something (Sources/CCurlShim/CCurlShim.c says why): an `exec` step reads its parent's, that
/// is taskgraph's, memory map while the run is under way.
struct LibcurlLoadingTests {
    /// A pipeline whose `probe` step writes to `mapped.txt` how many of taskgraph's mappings
    /// are libcurl's, after `before` when given.
    private static func probe(after before: String? = nil) -> String {
        """
        version: 1
        name: probe
        operations:
        \(before ?? "")
          probe:
            op: exec
            command: [sh, -c, 'grep -c libcurl /proc/$PPID/maps > mapped.txt; true']
        \(before == nil ? "" : "    needs: fetch")
        """
    }

    @Test func aRunThatTransfersNothingNeverLoadsLibcurl() async throws {
        let directory = try fixtureDirectory()
        try write(Self.probe(), to: "probe.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "probe.yaml", "--no-progress"], in: directory, environment: ["TASKGRAPH_REMOTE_CACHE": nil])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(of: "mapped.txt", in: directory) == ["0"])
    }

    /// The probe can see libcurl when it is there: after a download, it is.
    @Test func aRunThatDownloadsHasLoadedLibcurl() async throws {
        let server = try NginxServer()
        try Data("served".utf8).write(to: server.stored("served.txt"))
        let directory = try fixtureDirectory()
        let fetch = "  fetch: {op: download, url: \"\(server.url("served.txt"))\"}"
        try write(Self.probe(after: fetch), to: "probe.yaml", in: directory)
        let result = try await TaskGraphProcess.run(
            ["run", "probe.yaml", "--no-progress"], in: directory, environment: ["TASKGRAPH_REMOTE_CACHE": nil])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(of: "mapped.txt", in: directory).first.flatMap { Int($0) } ?? 0 > 0)
    }

    /// A run that took the nothing-changed shortcut needs no remote cache, so it does not load
    /// libcurl even when one is named. The dynamic loader's own log (`LD_DEBUG=files`) says
    /// which libraries each process opened; the first run shows the log names libcurl when it
    /// is loaded.
    @Test func aNothingChangedRunWithARemoteCacheNamedNeverLoadsLibcurl() async throws {
        let server = try NginxServer()
        let directory = try fixtureDirectory()
        try write(
            """
            version: 1
            name: unchanged
            operations:
              note: {op: exec, command: [sh, -c, 'echo noted > note.txt'], outputs: [note.txt]}
            """, to: "unchanged.yaml", in: directory)
        // Old enough for its `stat` to show a later change, or no snapshot is written.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3_600)],
            ofItemAtPath: directory.appendingPathComponent("unchanged.yaml").path)
        let arguments = ["run", "unchanged.yaml", "--no-progress", "--remote-cache", server.url("cache")]
        // The same environment both times (another one is another command): the loader writes
        // a log file per process, named after its id.
        let logs = directory.appendingPathComponent("loader")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        var seen = Set<URL>()
        func loadedLibcurl() async throws -> (status: Int32, output: String, loaded: Bool) {
            let result = try await TaskGraphProcess.run(
                arguments, in: directory,
                environment: [
                    "TASKGRAPH_CACHE_DIR": directory.appendingPathComponent("store").path,
                    "TASKGRAPH_REMOTE_CACHE": nil, "LD_DEBUG": "files",
                    "LD_DEBUG_OUTPUT": logs.appendingPathComponent("log").path,
                    // Directories that no package manager rewrites during the test (their change
                    // rightly refuses the shortcut).
                    "PATH": "/usr/bin:/bin",
                ])
            let new = Set(try FileManager.default.contentsOfDirectory(at: logs, includingPropertiesForKeys: nil))
                .subtracting(seen)
            seen.formUnion(new)
            let loaded = try new.contains { try String(contentsOf: $0, encoding: .utf8).contains("libcurl") }
            return (result.status, result.stdout + result.stderr, loaded)
        }
        let first = try await loadedLibcurl()
        #expect(first.status == 0, "\(first.output)")
        #expect(first.loaded, "the first run uploads its results")
        let second = try await loadedLibcurl()
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("nothing changed since the last run"), "\(second.output)")
        #expect(!second.loaded)
    }
}
