import Foundation

/// Expands path patterns into the regular files they match, as a shell would, plus `**`.
///
/// A pattern is split at `/`; each component is matched against the names in one directory with
/// `fnmatch(3)`: `*` (any run of characters), `?` (one character) and `[...]` (one of a set,
/// `[!...]` none of it) never match `/`, and match a leading `.` only when written. A component
/// that is exactly `**` matches any number of directories, none included, leaving out hidden
/// directories and links to directories (so a link cycle cannot make it loop).
/// Blocking: call it through `BlockingIO.run` or a run's `RunResources.blockingIO`.
package enum PathGlob {
    /// Whether `pattern` has a wildcard, so that matching nothing is not an error.
    package static func isPattern(_ pattern: String) -> Bool {
        pattern.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "[") }
    }

    /// The regular files (or links to them) that `pattern` matches, written as the pattern is:
    /// relative paths stay relative to `directory`, absolute ones stay absolute. Sorted, each
    /// once.
    package static func expand(_ pattern: String, in directory: String) -> [String] {
        var candidates = [pattern.hasPrefix("/") ? "/" : ""]
        for component in pattern.split(separator: "/").map(String.init) {
            if component == "**" {
                candidates = candidates.flatMap { [$0] + descendants(of: $0, in: directory) }
            } else if isPattern(component) {
                candidates = candidates.flatMap { path in
                    entries(of: path, in: directory)
                        .filter { fnmatch(component, $0, FNM_PERIOD) == 0 }
                        .map { join(path, $0) }
                }
            } else {
                candidates = candidates.map { join($0, component) }
            }
        }
        let files = candidates.filter { FileKind(at: PathResolver.resolve($0, in: directory)) == .regular }
        return Set(files).sorted()
    }

    /// Whether `pattern` matches `path` by their text alone, without looking at the file system
    /// (for files that do not exist yet): each component as `expand` matches it, `**` any
    /// number of components. Both are compared as written; normalise them first.
    package static func matches(_ pattern: String, path: String) -> Bool {
        let patternComponents = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let pathComponents = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // matched[j]: whether the pattern so far matches the first j components of the path.
        var matched = [Bool](repeating: false, count: pathComponents.count + 1)
        matched[0] = true
        for component in patternComponents {
            var next = [Bool](repeating: false, count: pathComponents.count + 1)
            if component == "**" {
                var reachable = false
                for index in matched.indices {
                    reachable = reachable || matched[index]
                    // `**` skips hidden directories, as `expand` does.
                    next[index] = reachable
                    if index < pathComponents.count, pathComponents[index].hasPrefix(".") { reachable = false }
                }
            } else {
                for index in pathComponents.indices where matched[index] {
                    next[index + 1] = fnmatch(component, pathComponents[index], FNM_PERIOD) == 0
                }
            }
            matched = next
        }
        return matched[pathComponents.count]
    }

    /// The names in the directory `path` (relative to `directory`), or none if it is not one.
    private static func entries(of path: String, in directory: String) -> [String] {
        let absolute = path.isEmpty ? (directory.isEmpty ? "." : directory) : PathResolver.resolve(path, in: directory)
        return (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []
    }

    /// Every entry below the directory `path`, at any depth, except hidden ones and links to
    /// directories.
    private static func descendants(of path: String, in directory: String) -> [String] {
        var found: [String] = []
        var pending = [path]
        while let next = pending.popLast() {
            for name in entries(of: next, in: directory) where !name.hasPrefix(".") {
                let child = join(next, name)
                let absolute = PathResolver.resolve(child, in: directory)
                if FileKind(at: absolute, followingLinks: false) == .directory {
                    found.append(child)
                    pending.append(child)
                } else if FileKind(at: absolute) != .directory {
                    found.append(child)
                }
            }
        }
        return found
    }

    /// `name` inside `path` (`""` is the base directory, `/` the root).
    private static func join(_ path: String, _ name: String) -> String {
        switch path {
        case "": name
        case "/": "/" + name
        default: path + "/" + name
        }
    }
}
