import TaskGraphCore

extension SlurmExecutor {
    /// The key of further `sbatch` arguments, passed as written.
    static let argumentsKey = "slurm_args"

    /// `executor: slurm` and its own operation key, `slurm_args`: what a program registers in
    /// its `OperationRegistry` to offer this executor (the command-line tool does).
    public static let declaration = ExecutorDeclaration(
        "slurm", summary: "as jobs of a Slurm cluster",
        settings: [
            ParameterSpec(
                argumentsKey, .stringList(minimumCount: 0), optional: true,
                "On a cluster: further sbatch arguments, e.g. [--qos=short].")
        ])
}
