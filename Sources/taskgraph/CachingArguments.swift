import ArgumentParser

/// How `run` uses the store: where it is, its size bound, and what to reuse.
struct CachingArguments: ParsableArguments {
    @OptionGroup var location: CacheArguments

    @Option(
        help: ArgumentHelp(
            "Keep the cache within this size after the run, evicting least-recently-used entries, e.g. 5GiB (default: "
                + "cache_max_size in ~/.config/taskgraph/config.yaml, else 5GiB).",
            valueName: "size"))
    var cacheMaxSize: String?

    @OptionGroup var reuse: ReuseArguments

    @OptionGroup var remote: RemoteCacheArguments
}
