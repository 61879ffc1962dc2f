import ArgumentParser
import TaskGraphReporting
import TaskGraphStore

/// `taskgraph cache clear`: empties the cache.
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove every entry from the cache, whatever its age.")

    @OptionGroup var cache: CacheArguments

    func run() async throws {
        try await CacheArguments.reportingStoreErrors {
            let store = cache.store()
            let cleared = try await store.clear()
            TextOutput.standardOutput.write(
                "removed \(cleared.records) records and \(cleared.blobs) blobs from \(store.root)\n")
            TextOutput.standardOutput.flush()
        }
    }
}
