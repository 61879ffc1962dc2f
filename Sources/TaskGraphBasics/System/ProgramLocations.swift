import Foundation

/// The programs a run's `exec` operations start, found once per run: the absolute path of a
/// program name, searched on a `PATH` from a working directory, is remembered for the rest of
/// the run, so that the cache key of each `exec` costs no `PATH` search (a handful of `stat`s)
/// when thousands run the same program. Only found programs are remembered.
///
/// A run takes its programs as they were when first looked up: a program that appears during
/// the run in a directory earlier on the `PATH` than the one found is not seen by the keys of
/// that run (its contents are: they are digested through the stat cache at every use).
package final class ProgramLocations: Sendable {
    /// What a program name is looked up with.
    private struct Query: Hashable {
        var name: String
        var searchPath: String?
        var workingDirectory: String?
    }

    private let found = Locked<[Query: String]>([:])

    /// No program found yet.
    package init() {}

    /// The absolute path of the regular file `name` starts, found on `searchPath` as
    /// `ChildProcesses` finds it (`ProgramLocator`); a relative result (a name with a "/", a
    /// relative `PATH` entry) starts from `workingDirectory`, or the current directory. Blocking
    /// the first time for each name, search path and working directory.
    /// - Returns: nil when there is no such program.
    package func path(of name: String, searchPath: String?, workingDirectory: String?) -> String? {
        let query = Query(name: name, searchPath: searchPath, workingDirectory: workingDirectory)
        if let path = found.withLock({ $0[query] }) { return path }
        guard let located = ProgramLocator.locate(name, searchPath: searchPath) else { return nil }
        let path = PathResolver.resolve(located, in: workingDirectory ?? FileManager.default.currentDirectoryPath)
        guard FileKind(at: path) == .regular else { return nil }
        found.withLock { $0[query] = path }
        return path
    }
}
