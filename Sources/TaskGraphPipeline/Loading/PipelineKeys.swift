/// The keys a pipeline file may use, with their meanings: the single source for `validate`,
/// `help`, the table in docs/pipeline.md and the JSON schema.
public enum PipelineKeys {
    /// A documented key.
    public struct Key: Sendable, Hashable {
        /// The key as written.
        public var name: String
        /// What its value is.
        public var type: String
        /// What it means.
        public var summary: String
    }

    /// Keys at the top level of a pipeline file, `executor:` naming those of `declarations`.
    public static func topLevel(for declarations: OperationDeclarations) -> [Key] {
        [
            Key(name: "version", type: "integer", summary: "Format version; must be 1."),
            Key(name: "name", type: "string", summary: "Pipeline name (default: the file name)."),
            Key(name: "description", type: "string", summary: "What the pipeline does."),
            Key(
                name: "vars", type: "map",
                summary: "Variables for ${name}: strings or lists; override with --var name=value."),
            Key(
                name: "defaults", type: "map",
                summary:
                    "retries, timeout, pool, cache, priority and the cluster keys applied to every operation that does "
                    + "not set its own."
            ),
            Key(
                name: "pools", type: "map",
                summary: "Named pools and their depths, e.g. {net: 8}; override with --pool name=N."),
            Key(
                name: "output", type: "string",
                summary:
                    "Output directory, relative to the current directory (default: out/<name>); --output overrides."),
            Key(
                name: "operations", type: "map",
                summary: "The operations, keyed by id (letters, digits, '-', '_', '.')."),
            Key(
                name: "include", type: "map",
                summary:
                    "Other pipeline files whose operations join this one as name.id: {name: path} or {name: {file: "
                    + "path, vars: {…}}}."
            ),
            Key(
                name: "executor", type: executorType(declarations),
                summary: "Where operations run: here" + declarations.executors.map { ", or " + $0.summary }.joined()
                    + " (default local); --executor overrides."),
            Key(
                name: "store", type: "string",
                summary:
                    "The store directory, on a file system every node mounts, relative to the current directory; "
                    + "--store overrides."
            ),
        ]
    }

    /// Keys every operation accepts, besides its type's own parameters: after `partition`, the
    /// keys of the executors of `declarations`.
    public static func operation(for declarations: OperationDeclarations) -> [Key] {
        [
            Key(name: "op", type: "string", summary: "The operation type (required); see `taskgraph list-ops`."),
            Key(
                name: "needs", type: "id or list of ids",
                summary: "Operations that must finish first and whose results this one receives."),
            Key(
                name: "foreach", type: "list, ${list-variable}, {glob: …} or {matrix: …}",
                summary: "Run one instance per item, id[item]; ${item} is the item, ${item.name} … its fields."),
            Key(
                name: "retries", type: "integer 0…100",
                summary: "Retries after a failure, with exponential backoff and jitter (default 0)."),
            Key(
                name: "timeout", type: "duration",
                summary: "Time limit per attempt, e.g. 30s, 2m, 1h30m (default none)."),
            Key(name: "pool", type: "string", summary: "Named pool to run in (default: the --jobs pool)."),
            Key(
                name: "cache", type: "boolean",
                summary:
                    "Reuse this operation's result from an earlier run when nothing it depends on changed (default "
                    + "true; an exec that declares no inputs or outputs is reused only with cache: true "
                    + "written out)."
            ),
            Key(
                name: "priority", type: "very-low | low | normal | high | very-high | integer -100…100",
                summary:
                    "Among ready operations of its pool, higher priorities start first (default normal, 0); never "
                    + "overrides needs."
            ),
            Key(
                name: "exclusive", type: "false | true | run",
                summary:
                    "true: runs alone in its pool, like a GCD barrier; run: alone in the whole run (default false)."),
            Key(
                name: "when", type: "success | always | failure",
                summary:
                    "Run when every need succeeded (success, default), once all ended whatever the outcome (always), "
                    + "or only if one failed (failure)."
            ),
            Key(name: "input", type: "id", summary: "Which dependency provides the input when several could."),
            Key(
                name: "executor", type: executorType(declarations),
                summary:
                    "local keeps the operation in the taskgraph process when the run uses a cluster (default: the "
                    + "run's executor)."
            ),
            Key(name: "cpus", type: "integer 1…4096", summary: "On a cluster: CPUs per job (sbatch --cpus-per-task)."),
            Key(name: "memory", type: "size", summary: "On a cluster: memory per job, e.g. 512M or 4G (sbatch --mem)."),
            Key(
                name: "time", type: "duration",
                summary: "On a cluster: the job's time limit, rounded up to minutes (sbatch --time)."),
            Key(
                name: "partition", type: "string",
                summary: "On a cluster: the partition to submit to (sbatch --partition)."),
        ]
            + declarations.executors.flatMap(\.settings).map {
                Key(name: $0.name, type: $0.type.displayName, summary: $0.summary)
            } + [
                Key(
                    name: "fuse", type: "boolean",
                    summary:
                        "On a cluster: run this operation's linear chain as one job, intermediate results kept in "
                        + "memory (default false; --fuse for every chain)."
                ),
                Key(name: "description", type: "string", summary: "What this operation is for."),
            ]
    }

    /// Keys allowed under `defaults:`.
    package static func defaults(for declarations: OperationDeclarations) -> [String] {
        ["retries", "timeout", "pool", "cache", "priority"] + ClusterSettings.types(in: declarations).map(\.name)
    }

    /// How `executor:` is written in help: `local | slurm` with the Slurm executor registered.
    private static func executorType(_ declarations: OperationDeclarations) -> String {
        ParameterType.choice(declarations.executorNames).displayName
    }

    /// What `priority:` accepts: a name of `QueuePriority` or a whole number in its range.
    public static let priorityType = ParameterType.namedInteger(QueuePriority.values, QueuePriority.range)
    /// What `exclusive:` accepts.
    public static let exclusiveType = ParameterType.choice(Exclusivity.allCases.map(\.rawValue))
    /// What `when:` accepts.
    public static let whenType = ParameterType.choice(TriggerRule.allCases.map(\.rawValue))
}
