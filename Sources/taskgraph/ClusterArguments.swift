import ArgumentParser

/// Where `run` runs operations: in this process, or as jobs of a Slurm cluster.
struct ClusterArguments: ParsableArguments {
    /// The executors `--executor` accepts.
    enum Executor: String, ExpressibleByArgument, CaseIterable {
        case local
        case slurm
    }

    @Option(help: "Where operations run: local (this process) or slurm (jobs of a Slurm cluster; README, \"Running on a Slurm cluster\").")
    var executor: Executor = .local

    @Option(help: ArgumentHelp(
        "The store on a file system every node mounts (with --executor slurm; default: the cache directory).",
        valueName: "dir"))
    var store: String?
}
