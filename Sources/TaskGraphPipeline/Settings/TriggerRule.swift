/// When a node runs, given how the nodes it needs ended (`when:` in a pipeline file): the
/// completion block of an `Operation`, generalised as Airflow's trigger rules and GitHub
/// Actions' `if: always()` / `if: failure()`.
///
/// Cancelling the run (Ctrl-C, `--fail-fast`) stops every node, `always` ones included.
public enum TriggerRule: String, CaseIterable, Hashable, Sendable, Codable {
    /// Runs when every node it needs has its result (they succeeded or were reused); the default.
    case success
    /// Runs once every node it needs has ended, however it ended: cleanups, notifications.
    case always
    /// Runs once every node it needs has ended, only if one of them failed or was skipped
    /// because of a failure.
    case failure
}
