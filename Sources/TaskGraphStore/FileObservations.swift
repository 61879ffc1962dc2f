import TaskGraphCore

/// The files a run's keys and hits were decided from, each with what `stat` said of it when its
/// digest was trusted or taken: what `UpToDateSnapshot` compares later. Incomplete when a file
/// changed while it was read or between two uses, or when a key depended on something no `stat`
/// shows (the matches of a pattern).
struct FileObservations: Sendable {
    /// One file as the run used it.
    struct Observed: Sendable, Equatable {
        var stat: FileStat
        /// Its digest, kept when it was changed too recently for `stat` to show a later change
        /// (racy clean, `StatCache.racyWindow`): such a file is hashed again to confirm it.
        var digest: ContentDigest?
    }

    /// Each file as its digest was used, by absolute path.
    private(set) var files: [String: Observed] = [:]
    /// Whether `files` covers everything the run's keys depended on. Once it does not, `files`
    /// are of no use (nothing compares them): they are dropped, and no more are noted.
    var isComplete = true {
        didSet { if !isComplete { files = [:] } }
    }

    /// Notes that the file at `path` was used as `observed`; a file used twice with another
    /// `stat` the second time makes the observations incomplete.
    mutating func note(_ path: String, _ observed: Observed) {
        guard isComplete else { return }
        if let earlier = files.updateValue(observed, forKey: path), earlier.stat != observed.stat { isComplete = false }
    }
}
