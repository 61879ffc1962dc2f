import ArgumentParser

/// How `run` and `explain` use the store: where it is, its size bound, and what to reuse.
struct CachingArguments: ParsableArguments {
    @OptionGroup var location: CacheArguments

    @Option(help: ArgumentHelp(
        "Keep the cache within this size after the run, evicting least-recently-used entries, e.g. 5GiB (default: cache_max_size in ~/.config/taskgraph/config.yaml, else 5GiB).",
        valueName: "size"))
    var cacheMaxSize: String?

    @Flag(help: "Run every operation, reusing nothing (results are still recorded).")
    var noCache = false

    @Flag(help: "Run the operations named after the file (all when none is named) and what depends on them, even when their results are stored.")
    var force = false
}
