import Foundation
import TaskGraphCore

extension ContentStore {
    /// The first line of a run-ids file (`pipelines/<sha256 of the path>.ids`), naming its
    /// format and version; a JSON array of the ids, sorted, follows.
    static let runIDsHeader = "taskgraph run ids 1"

    /// The operation ids of the last run of the pipeline file at `pipeline` (an absolute path)
    /// that took its whole graph, with the instances its fan-outs added; nil when there was none
    /// or the file cannot be read.
    public func lastRunIDs(pipeline: String) async -> Set<String>? {
        let path = layout.runIDs(pipeline: pipeline)
        let layout = layout
        guard let data = (try? await BlockingIO.run { try StoreIO.mapped(path, layout) }) ?? nil else { return nil }
        let header = Data((Self.runIDsHeader + "\n").utf8)
        guard data.starts(with: header), let ids = try? JSONDecoder().decode([String].self, from: data.dropFirst(header.count))
        else { return nil }
        return Set(ids)
    }

    /// Keeps `ids` as the last whole run's of the pipeline file at `pipeline`, unless they are
    /// `previous` (what `lastRunIDs` read).
    /// - Throws: `StoreError.writeFailed`.
    public func rememberRunIDs(_ ids: Set<String>, previous: Set<String>?, pipeline: String) async throws {
        guard ids != previous else { return }
        let path = layout.runIDs(pipeline: pipeline)
        let layout = layout
        let flush = flushesWrites
        var encoded = Data((Self.runIDsHeader + "\n").utf8)
        encoded.append((try? JSONEncoder().encode(ids.sorted())) ?? Data("[]".utf8))
        let data = encoded
        try await BlockingIO.run { try StoreIO.writeFile(data, to: path, layout, flush: flush) }
    }
}
