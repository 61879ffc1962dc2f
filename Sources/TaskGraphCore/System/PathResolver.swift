/// Joins relative paths onto base directories.
package enum PathResolver {
    /// `path` if absolute, else `directory/path`, with `.` components removed.
    package static func resolve(_ path: String, in directory: String) -> String {
        let joined = path.hasPrefix("/") || directory.isEmpty ? path : directory + "/" + path
        if isResolved(joined) { return joined }
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

    /// Whether `path` is already as `resolve` leaves it: no empty component (a doubled or
    /// trailing "/") and no "." component. One pass over its bytes, no allocation.
    private static func isResolved(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/")
        // The current component's length so far, and whether it is "." so far.
        var length = 0
        var isDot = false
        for (offset, byte) in path.utf8.enumerated() {
            if byte == slash {
                if offset == 0 { continue }
                if length == 0 || isDot { return false }
                length = 0
                isDot = false
            } else {
                isDot = length == 0 && byte == UInt8(ascii: ".")
                length += 1
            }
        }
        return !isDot && (length > 0 || path.utf8.count <= 1)
    }
}
