import Foundation
import TaskGraphCore

/// The `sbatch` command lines that run job files on nodes: one job, or a job array of job files
/// with the same resource options.
enum SbatchCommand {
    /// `sbatch --parsable` with the run's job name, the job's log and working directory, the
    /// operation's resource options, then `taskgraph worker` as the job's script, given the
    /// job's `reference` (its job file's path, or what the run's exchange published it as).
    static func arguments(name: String, reference: String, options: [String], configuration: SlurmConfiguration)
        -> [String]
    {
        common(log: configuration.log(of: name), configuration: configuration) + options
            + ["--wrap=exec " + worker(configuration) + " " + quoted(reference)]
    }

    /// A job array, `--array=0-(count - 1)`: task i runs the job file on line i + 1 of `list`
    /// and logs to `<list without .list>_i.log`.
    static func arguments(list: String, count: Int, options: [String], configuration: SlurmConfiguration) -> [String] {
        let stem = String(list.dropLast(".list".count))
        return common(log: "\(stem)_%a.log", configuration: configuration) + ["--array=0-\(count - 1)"] + options
            + [
                "--wrap=exec " + worker(configuration) + " \"$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " + quoted(list)
                    + ")\""
            ]
    }

    /// A job array `name` (e.g. `array-2`) whose task i runs the job `references[i]`, the
    /// references written into the job's script: for an exchange, where no file is shared.
    static func arguments(
        array name: String, references: [String], options: [String], configuration: SlurmConfiguration
    ) -> [String] {
        common(log: configuration.log(of: "\(name)_%a"), configuration: configuration)
            + ["--array=0-\(references.count - 1)"] + options
            + [
                "--wrap=set -- " + references.map(quoted).joined(separator: " ")
                    + "; shift \"$SLURM_ARRAY_TASK_ID\"; exec "
                    + worker(configuration) + " \"$1\""
            ]
    }

    /// The operation's resources as `sbatch` options, then its extra arguments.
    static func options(for settings: ClusterSettings) -> [String] {
        var options: [String] = []
        if let cpus = settings.cpus { options.append("--cpus-per-task=\(cpus)") }
        if let memory = settings.memory { options.append("--mem=\(memory)") }
        if let time = settings.time { options.append("--time=\(minutes(time))") }
        if let partition = settings.partition { options.append("--partition=\(partition)") }
        guard case .list(let arguments)? = settings.executorSettings[SlurmExecutor.argumentsKey] else { return options }
        return options + arguments
    }

    /// `limit` in whole minutes, rounded up (Slurm's granularity), at least 1.
    static func minutes(_ limit: Duration) -> Int {
        let seconds = limit.components.seconds + (limit.components.attoseconds > 0 ? 1 : 0)
        return max(1, Int((seconds + 59) / 60))
    }

    /// `text` as one shell word.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func common(log: String, configuration: SlurmConfiguration) -> [String] {
        [
            "sbatch", "--parsable", "--job-name=\(configuration.runName)", "--output=\(log)",
            "--chdir=\(configuration.workingDirectory)",
        ]
    }

    /// `taskgraph worker --store DIR` (or the exchange's options), quoted for the job's shell.
    private static func worker(_ configuration: SlurmConfiguration) -> String {
        let options = configuration.exchange?.workerOptions ?? ["--store", configuration.storeRoot]
        return ([configuration.workerProgram, "worker"] + options).map(quoted).joined(separator: " ")
    }
}
