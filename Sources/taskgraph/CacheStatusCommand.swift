import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphReporting
import TaskGraphStore

/// `taskgraph cache status`: where the cache is, how big, and how recent runs used it.
struct CacheStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the cache's location, size, entries and recent runs' hits and misses.")

    @OptionGroup var cache: CacheArguments

    /// How many recent runs are listed.
    static let listedRuns = 10

    func run() async throws {
        try await CacheArguments.reportingStoreErrors {
            let maxSize = try await CacheArguments.maxSize(option: nil)
            let status = try await cache.inspectedStore().status()
            TextOutput.standardOutput.write(Self.render(status, maxSize: maxSize))
            TextOutput.standardOutput.flush()
        }
    }

    /// The report: location, size against the bound, counts, then the latest runs.
    static func render(_ status: StoreStatus, maxSize: Int64) -> String {
        var text = """
            cache: \(status.root)
            size: \(ByteCountText.format(status.size)) of \(ByteCountText.format(maxSize))
            records: \(status.records)
            blobs: \(status.blobs)

            """
        let runs = status.recentRuns.suffix(listedRuns)
        guard !runs.isEmpty else { return text + "recent runs: none\n" }
        text += "recent runs (latest last):\n"
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        for run in runs {
            let date = formatter.string(from: Date(timeIntervalSince1970: run.date))
            text +=
                "  \(date)  \(CacheCommand.plural(run.hits, "hit")), \(CacheCommand.plural(run.misses, "miss"))  "
                + "\(run.pipeline)\n"
            if let remote = run.remote {
                text +=
                    "    remote: \(CacheCommand.plural(remote.hits, "hit")), "
                    + "\(CacheCommand.plural(remote.misses, "miss")), "
                    + "\(ByteCountText.format(Int(remote.bytesDown))) down, "
                    + "\(ByteCountText.format(Int(remote.bytesUp))) up\n"
            }
        }
        let hits = runs.reduce(0) { $0 + $1.hits }
        let total = hits + runs.reduce(0) { $0 + $1.misses }
        let rate = total == 0 ? "" : " (\(hits * 100 / total) %)"
        return text + "hits over these \(CacheCommand.plural(runs.count, "run")): \(hits) of \(total)\(rate)\n"
    }
}
