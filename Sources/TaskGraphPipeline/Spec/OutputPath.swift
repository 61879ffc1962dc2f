/// Paths inside the output directory: relative, never climbing out of it.
package enum OutputPath {
    /// Whether `path` is relative and stays inside the directory it is relative to
    /// (`a/../b` is fine, `../x` and `/etc/passwd` are not) and names a file: no trailing `/`.
    package static func isContained(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~"), !path.hasSuffix("/") else { return false }
        var depth = 0
        let dot = UInt8(ascii: ".")
        for component in path.utf8.split(separator: UInt8(ascii: "/")) {
            let isDots = component.count <= 2 && component.allSatisfy { $0 == dot }
            if isDots, component.count == 1 { continue }
            depth += isDots ? -1 : 1
            if depth < 0 { return false }
        }
        return depth > 0
    }
}
