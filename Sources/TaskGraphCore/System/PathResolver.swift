/// Joins relative paths onto base directories.
package enum PathResolver {
    /// `path` if absolute, else `directory/path`, with `.` components removed.
    package static func resolve(_ path: String, in directory: String) -> String {
        let joined = path.hasPrefix("/") || directory.isEmpty ? path : directory + "/" + path
        let components = joined.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return (joined.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
    }
}
