/// Whether a node runs alone (`exclusive:` in a pipeline file), as a barrier block on a
/// concurrent GCD queue: it starts only when nothing else of its scope is running, and nothing
/// else of its scope starts until it has finished. For steps that rewrite a shared database,
/// index or directory.
public enum Exclusivity: String, CaseIterable, Hashable, Sendable, Codable {
    /// Runs beside anything (`exclusive: false`, the default).
    case shared = "false"
    /// Runs alone in its pool (`exclusive: true`).
    case pool = "true"
    /// Runs alone in the whole run, across every pool (`exclusive: run`).
    case run
}
