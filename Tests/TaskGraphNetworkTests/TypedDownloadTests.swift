import Foundation
import OperationTestSupport
import TaskGraphCore
import TaskGraphNetwork
import Testing

/// `Download`: keyed as the same `download` in a pipeline file, checked with `validate`'s
/// messages.
struct TypedDownloadTests {
    @Test func aTypedDownloadIsKeyedAsTheSameDownloadInAPipelineFile() async throws {
        let directory = try makeScratchDirectory().path
        try Data("photo".utf8).write(to: URL(fileURLWithPath: directory + "/photo.bin"))
        var graph = ExecutionGraph()
        try graph.add("local", action: Download(url: "photo.bin", directory: directory))
        try graph.add(
            "pinned",
            action: Download(
                url: "https://example.com/lake.jpg", headers: ["Authorization": "Bearer t0ken"],
                stallTimeout: .seconds(10), sha256: String(repeating: "0", count: 64)))
        let text = """
            version: 1
            name: chain
            operations:
              local: {op: download, url: photo.bin}
              pinned: {op: download, url: "https://example.com/lake.jpg", headers: {Authorization: Bearer t0ken},\
             stall_timeout: 10s, sha256: "\(String(repeating: "0", count: 64))"}
            """
        let planned = try plannedGraph(text, in: directory, registry: .network)
        let typedKeys = try await keys(of: graph)
        #expect(typedKeys.count == 2)
        #expect(typedKeys == (try await keys(of: planned)))
    }

    @Test func aDurationOutOfRangeGetsTheMessageValidateGives() throws {
        do {
            _ = try Download(url: "https://example.com/", connectTimeout: .seconds(-1))
            Issue.record("Download accepted a negative timeout")
        } catch {
            #expect(
                String(describing: error)
                    == "'download': 'connect_timeout' must be a duration such as 30s, 500ms or 2m, not '-1s'")
        }
    }
}
