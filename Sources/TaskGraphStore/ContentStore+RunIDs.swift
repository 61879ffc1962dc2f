import Foundation
import TaskGraphCore

extension ContentStore {
    /// The first line of a run-ids file (`pipelines/<sha256 of the path>.ids`), naming its
    /// format and version; the ids follow, each ended by a NUL byte (which no id holds).
    static let runIDsHeader = "taskgraph run ids 2\n"

    /// The operation ids of the last run of the pipeline file at `pipeline` (an absolute path)
    /// that took its whole graph, with the instances its fan-outs added; nil when there was none
    /// or the file cannot be read.
    public func lastRunIDs(pipeline: String) async -> Set<String>? {
        guard let data = await runIDsFile(pipeline: pipeline), data.starts(with: Data(Self.runIDsHeader.utf8)),
            data.last == 0
        else { return nil }
        let ids = data.dropFirst(Self.runIDsHeader.utf8.count).dropLast().split(
            separator: 0, omittingEmptySubsequences: false)
        return Set(ids.map { String(decoding: $0, as: UTF8.self) })
    }

    /// Keeps `ids` as the last whole run's of the pipeline file at `pipeline`; writes nothing
    /// when the file holds them already, in this order. Ids that hold a NUL byte (a YAML
    /// escape can make one) are not kept: none is, and the next run names none removed.
    /// - Throws: `StoreError.writeFailed`.
    public func rememberRunIDs(_ ids: [String], pipeline: String) async throws {
        let ids = ids.contains { $0.utf8.contains(0) } ? [] : ids
        var encoded = Data(Self.runIDsHeader.utf8)
        encoded.reserveCapacity(ids.reduce(encoded.count) { $0 + $1.utf8.count + 1 })
        for id in ids {
            encoded.append(contentsOf: id.utf8)
            encoded.append(0)
        }
        guard await runIDsFile(pipeline: pipeline) != encoded else { return }
        let (path, layout, flush, data) = (layout.runIDs(pipeline: pipeline), layout, flushesWrites, encoded)
        try await BlockingIO.run { try StoreIO.writeFile(data, to: path, layout, flush: flush) }
    }

    /// The bytes of `pipeline`'s run-ids file; nil when there is none or it cannot be read.
    private func runIDsFile(pipeline: String) async -> Data? {
        let (path, layout) = (layout.runIDs(pipeline: pipeline), layout)
        return (try? await BlockingIO.run { try StoreIO.mapped(path, layout) }) ?? nil
    }
}
