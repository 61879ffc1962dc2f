import Foundation

/// One `squeue` answer for the jobs of a run: each job's state and reason.
struct QueueSnapshot: Equatable {
    /// A job's line.
    struct Entry: Equatable {
        /// Slurm's state name, e.g. `PENDING`, `RUNNING`, `COMPLETED`, `TIMEOUT`.
        var state: String
        /// Slurm's reason, e.g. `Resources`, `NonZeroExitCode`, `None`.
        var reason: String
    }

    /// The `squeue` arguments that produce what `init(parsing:)` reads: every state (finished
    /// jobs stay listed for `MinJobAge`), one line per task of a job array (`65_3`), no header,
    /// `id|state|reason`.
    static func arguments(runName: String) -> [String] {
        ["squeue", "--noheader", "--array", "--states=all", "--name=\(runName)", "--format=%i|%T|%r"]
    }

    /// The `sacct` arguments for job `id` that produce what `init(parsingAccounting:)` reads:
    /// its allocation's line, `id|state|exit code`. Answers only where the cluster keeps
    /// accounting (slurmdbd); elsewhere `sacct` fails.
    static func accountingArguments(job id: String) -> [String] {
        ["sacct", "--noheader", "--parsable2", "--allocations", "--jobs=\(id)", "--format=JobID,State,ExitCode"]
    }

    /// States in which a job waits for a node (and `SUBMITTED`, before a query lists it).
    static let waitingStates: Set<String> = [
        "SUBMITTED", "PENDING", "CONFIGURING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED",
    ]

    /// States in which a job still holds or waits for a node.
    static let activeStates: Set<String> = [
        "PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "REQUEUE_HOLD",
        "REQUEUE_FED", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED",
    ]

    /// The jobs listed, by id.
    var entries: [String: Entry]

    /// Reads `squeue`'s output; lines it cannot read are left out.
    init(parsing output: String) {
        var entries: [String: Entry] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let id = fields[0].trimmingCharacters(in: .whitespaces)
            entries[id] = Entry(state: String(fields[1]), reason: String(fields[2]))
        }
        self.entries = entries
    }

    /// Reads `sacct`'s output: the state's first word (`CANCELLED by 1000` is `CANCELLED`), and
    /// as reason the exit code and signal, e.g. `exit code 0:15`.
    init(parsingAccounting output: String) {
        self.init(parsing: output)
        for (id, entry) in entries {
            entries[id] = Entry(state: String(entry.state.prefix { $0 != " " }), reason: "exit code \(entry.reason)")
        }
    }
}
