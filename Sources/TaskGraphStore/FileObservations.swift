/// The files a run's keys and hits were decided from, each with what `stat` said of it when its
/// digest was trusted or taken: what `UpToDateSnapshot` compares later. Incomplete when a digest
/// was taken from a file too recently changed to be trusted by its `stat` (racy clean), or when a
/// key depended on something no `stat` shows (the matches of a pattern).
struct FileObservations: Sendable {
    /// Each file's `stat` when its digest was used, by absolute path.
    var files: [String: FileStat] = [:]
    /// Whether `files` covers everything the run's keys depended on.
    var isComplete = true
}
