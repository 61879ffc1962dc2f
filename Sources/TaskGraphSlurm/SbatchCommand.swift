import Foundation
import TaskGraphCore

/// The `sbatch` command line that runs one job file on a node.
enum SbatchCommand {
    /// `sbatch --parsable` with the run's job name, the job's log and working directory, the
    /// operation's resources, its extra arguments, then `taskgraph worker` as the job's script.
    static func arguments(name: String, settings: ClusterSettings, configuration: SlurmConfiguration) -> [String] {
        let directory = configuration.jobDirectory
        var arguments = [
            "sbatch", "--parsable", "--job-name=\(configuration.runName)", "--output=\(directory)/\(name).log",
            "--chdir=\(directory)",
        ]
        if let cpus = settings.cpus { arguments.append("--cpus-per-task=\(cpus)") }
        if let memory = settings.memory { arguments.append("--mem=\(memory)") }
        if let time = settings.time { arguments.append("--time=\(minutes(time))") }
        if let partition = settings.partition { arguments.append("--partition=\(partition)") }
        arguments += settings.slurmArguments
        let worker = [configuration.workerProgram, "worker", "--store", configuration.storeRoot, "\(directory)/\(name).job"]
        arguments.append("--wrap=exec " + worker.map(quoted).joined(separator: " "))
        return arguments
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
}
