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
    /// once. A listed entry's type comes from its directory's listing: only links and entries of
    /// file systems that do not tell are looked up with `stat`.
    package static func expand(_ pattern: String, in directory: String) -> [String] {
        var candidates = [Candidate(path: pattern.hasPrefix("/") ? "/" : "", kind: nil)]
        for component in pattern.split(separator: "/").map(String.init) {
            if component == "**" {
                candidates = candidates.flatMap { [$0] + descendants(of: $0, in: directory) }
            } else if isPattern(component) {
                candidates = candidates.flatMap { candidate in
                    entries(of: candidate, in: directory)
                        .filter { fnmatch(component, $0.name, FNM_PERIOD) == 0 }
                        .map { Candidate(path: join(candidate.path, $0.name), kind: $0.kind) }
                }
            } else {
                candidates = candidates.map { Candidate(path: join($0.path, component), kind: nil) }
            }
        }
        let files = candidates.filter { candidate in
            (candidate.kind ?? FileKind(at: PathResolver.resolve(candidate.path, in: directory))) == .regular
        }
        var sorted = files.map(\.path).sorted()
        // Two `**` can reach one file twice.
        if sorted.count > 1 {
            sorted = sorted.indices.compactMap { $0 > 0 && sorted[$0] == sorted[$0 - 1] ? nil : sorted[$0] }
        }
        return sorted
    }

    /// A path matched so far, with what it names (following links) when its listing told.
    private struct Candidate {
        var path: String
        var kind: FileKind?
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

    /// The entries of the directory `candidate` names (relative to `directory`), or none if it
    /// is not one; a candidate listed as a file is not opened.
    private static func entries(of candidate: Candidate, in directory: String) -> [DirectoryEntry] {
        guard candidate.kind == nil || candidate.kind == .directory else { return [] }
        let path = candidate.path
        return DirectoryEntry.list(
            path.isEmpty ? (directory.isEmpty ? "." : directory) : PathResolver.resolve(path, in: directory))
    }

    /// Every entry below the directory `candidate`, at any depth, except hidden ones and links
    /// to directories.
    private static func descendants(of candidate: Candidate, in directory: String) -> [Candidate] {
        var found: [Candidate] = []
        var pending = [candidate]
        while let next = pending.popLast() {
            for entry in entries(of: next, in: directory) where !entry.name.hasPrefix(".") {
                let child = join(next.path, entry.name)
                if let kind = entry.kind {
                    found.append(Candidate(path: child, kind: kind))
                    if kind == .directory { pending.append(found[found.count - 1]) }
                    continue
                }
                let absolute = PathResolver.resolve(child, in: directory)
                if FileKind(at: absolute, followingLinks: false) == .directory {
                    found.append(Candidate(path: child, kind: .directory))
                    pending.append(found[found.count - 1])
                } else {
                    let kind = FileKind(at: absolute)
                    if kind != .directory { found.append(Candidate(path: child, kind: kind)) }
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
