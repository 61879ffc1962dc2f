/// Where an operation runs and what it asks a cluster scheduler for: the operation keys
/// `executor`, `cpus`, `memory`, `time`, `partition`, the keys of the registered executors' own
/// (`ExecutorDeclaration`) and `fuse` (also under `defaults:`).
/// None of them is part of a cache key: they change where and how fast an operation runs, not
/// its result.
public struct ClusterSettings: Hashable, Sendable, Codable {
    /// The keys and their types, in the order they are read: `executor` names `local` or an
    /// executor of `declarations`, whose own keys follow `partition`.
    public static func types(in declarations: OperationDeclarations) -> [(name: String, type: ParameterType)] {
        [
            ("executor", .choice(declarations.executorNames)), ("cpus", .integer(1...4096)), ("memory", .string),
            ("time", .duration), ("partition", .string),
        ] + declarations.executors.flatMap(\.settings).map { ($0.name, $0.type) } + [("fuse", .boolean)]
    }

    /// `executor:`: `local` keeps the operation in the driver; nil follows the run's executor.
    public var executor: String?
    /// `cpus:`, CPUs per job (`sbatch --cpus-per-task`).
    public var cpus: Int?
    /// `memory:`, memory per job in Slurm's notation (`sbatch --mem`), e.g. `512M`, `4G`.
    public var memory: String?
    /// `time:`, the job's time limit (`sbatch --time`, in whole minutes, rounded up).
    public var time: Duration?
    /// `partition:` (`sbatch --partition`).
    public var partition: String?
    /// The keys an executor declares of its own (`ExecutorDeclaration.settings`), by name.
    public var executorSettings: [String: ParameterValue]
    /// `fuse:`, whether the operation may share one job with the operations of its linear chain
    /// (docs/cluster.md, "Fusion"); `--fuse` fuses every chain.
    public var fuse: Bool

    /// Settings; by default none (the run's executor, the scheduler's defaults).
    public init(
        executor: String? = nil, cpus: Int? = nil, memory: String? = nil, time: Duration? = nil,
        partition: String? = nil, executorSettings: [String: ParameterValue] = [:], fuse: Bool = false
    ) {
        self.executor = executor
        self.cpus = cpus
        self.memory = memory
        self.time = time
        self.partition = partition
        self.executorSettings = executorSettings
        self.fuse = fuse
    }

    /// Sets the key `name` from its checked `value`.
    package mutating func set(_ name: String, to value: ParameterValue) {
        switch (name, value) {
        case ("executor", .string(let text)): executor = text
        case ("cpus", .integer(let count)): cpus = count
        case ("memory", .string(let text)): memory = text
        case ("time", .duration(let limit)): time = limit
        case ("partition", .string(let text)): partition = text
        case ("fuse", .boolean(let fused)): fuse = fused
        default: executorSettings[name] = value
        }
    }

    /// The problem with `value` for the key `name` that its type alone does not catch: a
    /// `memory` that is not a whole number with an optional `K`, `M`, `G` or `T` (megabytes
    /// without one), or a `time` under one second; nil when it is fine.
    package static func problem(with value: ParameterValue, named name: String) -> String? {
        switch (name, value) {
        case ("memory", .string(let text)):
            let digits = text.last.map { "KMGT".contains($0) } == true ? text.dropLast() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let amount = Int(digits),
                amount > 0
            else {
                return "'memory' must be a size such as 512M or 4G, not '\(text)'"
            }
            return nil
        case ("time", .duration(let limit)) where limit < .seconds(1):
            return "'time' must be at least 1s"
        default:
            return nil
        }
    }
}
