import Foundation

/// Finds the file a program name stands for, as `execvp` does: what `ChildProcesses` starts, and
/// what an `exec`'s cache key digests. Blocking (it stats files).
package enum ProgramLocator {
    /// The search path when the environment has no `PATH`.
    static let defaultSearchPath = "/usr/bin:/bin"

    /// The path to run for `name`: itself if it contains "/", else the first executable regular
    /// file of that name in the directories of `searchPath` (an empty entry is the current
    /// directory), or nil if there is none.
    package static func locate(_ name: String, searchPath: String?) -> String? {
        if name.contains("/") {
            return name
        }
        let directories = (searchPath ?? defaultSearchPath).split(separator: ":", omittingEmptySubsequences: false)
        for directory in directories {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            if FileKind(at: candidate) == .regular, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}
