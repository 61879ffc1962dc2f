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
}
