/// Paths inside the output directory: relative, never climbing out of it.
enum OutputPath {
    /// Whether `path` is relative and stays inside the directory it is relative to
    /// (`a/../b` is fine, `../x` and `/etc/passwd` are not) and names a file: no trailing `/`.
    static func isContained(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~"), !path.hasSuffix("/") else { return false }
        var depth = 0
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": depth -= 1
            default: depth += 1
            }
            if depth < 0 { return false }
        }
        return depth > 0
    }
}
