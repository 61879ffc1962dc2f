import ArgumentParser
import TaskGraphReporting

/// `taskgraph cache`: looks after the store of earlier results.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show, collect, check or empty the cache of earlier results (docs/cache.md).",
        discussion:
            "Exit codes: 0 success, 1 the cache or the configuration file cannot be read or written, 64 usage error.",
        subcommands: [CacheStatusCommand.self, CacheGCCommand.self, CacheVerifyCommand.self, CacheClearCommand.self])
}

extension CacheCommand {
    /// `1 record`, `2 records`, `2 misses`.
    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : noun.hasSuffix("s") ? "es" : "s")"
    }
}

extension CacheCommand {
    /// Warns, on standard error, about each symbolic link found where the store has a
    /// directory: maintenance did not follow it.
    static func warnAboutLinks(_ links: [String]) {
        for link in links {
            TextOutput.standardError.write(
                "taskgraph: warning: \(link) is a symbolic link inside the cache: not followed, nothing under it was "
                    + "touched\n"
            )
        }
        TextOutput.standardError.flush()
    }
}
