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
        if path.hasPrefix("/"), isResolved(path, parentsAllowed: false) { return path }
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
    /// trailing "/") and no "." component, nor ".." unless `parentsAllowed`. One pass over its
    /// bytes, no allocation.
    private static func isResolved(_ path: String, parentsAllowed: Bool = true) -> Bool {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        // The current component's length so far, and how many of its bytes are dots.
        var length = 0
        var dots = 0
        // Whether the current component is one `normalized` or `resolve` rewrites.
        var isSpecial: Bool { dots == length && (length == 1 || (length == 2 && !parentsAllowed)) }
        for (offset, byte) in path.utf8.enumerated() {
            if byte == slash {
                if offset == 0 { continue }
                if length == 0 || isSpecial { return false }
                length = 0
                dots = 0
            } else {
                if byte == dot { dots += 1 }
                length += 1
            }
        }
        return !isSpecial && (length > 0 || path.utf8.count <= 1)
    }
}
