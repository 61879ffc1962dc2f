/// Joins relative paths onto base directories.
package enum PathResolver {
    /// `path` if absolute, else `directory/path`, with `.` components removed.
    package static func resolve(_ path: String, in directory: String) -> String {
        let joined = path.hasPrefix("/") || directory.isEmpty ? path : directory + "/" + path
        let components = joined.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return (joined.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
    }

    /// The absolute `path` without `.` and empty components, and with `..` applied lexically
    /// (`/o/a/../x.txt` is `/o/x.txt`).
    package static func normalized(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component == ".." {
                _ = components.popLast()
            } else {
                components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
