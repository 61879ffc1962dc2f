import TaskGraphBasics

/// The items of `foreach: {glob: …}`: one per file its patterns match (`PathGlob`), sorted by
/// path. An item's value is the path as the pattern is written (relative to the pipeline file),
/// its id the path below the pattern's fixed prefix without its extension (`photos/*.jpg` →
/// `mountains`, `photos/**/*.jpg` → `2024/beach`), its fields `name`, `stem`, `ext` (with its
/// dot) and `dir`. Blocking (lists directories).
package struct GlobItems {
    /// Directory of the pipeline file: what patterns are relative to.
    package let pipelineDirectory: String
    /// The items of each list of patterns, made once per load: operations with the same glob
    /// share its listing and its items.
    private var listings: [[String]: Listing] = [:]

    /// What a list of patterns matched.
    private struct Listing {
        var items: [ForeachItem] = []
        /// The patterns (by index) that matched no file.
        var empty: [Int] = []
        /// Files left out, by the pattern that matched them: what is wrong with each.
        var problems: [(pattern: Int, message: String)] = []
    }

    package init(pipelineDirectory: String) {
        self.pipelineDirectory = pipelineDirectory
    }

    /// The items of `glob`, checked; `subject` names its operation in messages.
    package mutating func items(of glob: ForeachSpec.GlobSource, subject: String, diagnostics: inout [Diagnostic])
        -> [ForeachItem]
    {
        let patterns = glob.patterns.map(\.value)
        let listing = listings[patterns] ?? list(patterns)
        listings[patterns] = listing
        if !glob.allowEmpty {
            for index in listing.empty {
                diagnostics.append(
                    .error(
                        "\(subject): foreach glob \(DisplayText.quoted(patterns[index])) matches no file",
                        at: glob.patterns[index].location))
            }
        }
        for problem in listing.problems {
            diagnostics.append(.error("\(subject): \(problem.message)", at: glob.patterns[problem.pattern].location))
        }
        return listing.items
    }

    /// Lists the files `patterns` match. Blocking.
    private func list(_ patterns: [String]) -> Listing {
        var listing = Listing()
        var matches: [String: (prefix: Int, pattern: Int)] = [:]
        for (index, pattern) in patterns.enumerated() {
            let found = PathGlob.expand(pattern, in: pipelineDirectory)
            if found.isEmpty { listing.empty.append(index) }
            let prefix = Self.fixedPrefix(of: pattern).utf8.count
            for path in found where matches[path] == nil { matches[path] = (prefix, index) }
        }
        var fileOfID: [String: String] = [:]
        for (path, match) in matches.sorted(by: { $0.key < $1.key }) {
            let item = Self.item(path: path, prefixLength: match.prefix)
            guard !item.id.isEmpty, !item.id.contains("]") else {
                listing.problems.append(
                    (
                        match.pattern,
                        "foreach glob matches \(DisplayText.quoted(path)), whose instance id "
                            + "\(DisplayText.quoted(item.id)) must be non-empty and contain no ']'"
                    ))
                continue
            }
            if let other = fileOfID[item.id] {
                listing.problems.append(
                    (
                        match.pattern,
                        "foreach glob gives two files the instance id \(DisplayText.quoted(item.id)): \(other) "
                            + "and \(path)"
                    ))
                continue
            }
            fileOfID[item.id] = path
            listing.items.append(item)
        }
        return listing
    }

    /// The item of the file `path`, whose first `prefixLength` bytes are its pattern's fixed
    /// prefix.
    package static func item(path: String, prefixLength: Int) -> ForeachItem {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        let directory = path.utf8.count > name.utf8.count ? String(path.dropLast(name.count + 1)) : "."
        let below = String(decoding: path.utf8.dropFirst(prefixLength), as: UTF8.self)
        let id = String(below.dropLast(ext.count))
        return ForeachItem(
            id: id, value: path,
            fields: ["name": name, "stem": stem, "ext": ext, "dir": directory.isEmpty ? "/" : directory])
    }

    /// The leading directories of `pattern` that have no wildcard, as `PathGlob.expand` writes
    /// them, with a trailing `/` (`photos/` for `photos/**/*.jpg`); the file name is never part
    /// of it.
    package static func fixedPrefix(of pattern: String) -> String {
        let components = pattern.split(separator: "/").dropLast()
        let literal = components.prefix { $0 != "**" && !PathGlob.isPattern(String($0)) }
        let start = pattern.hasPrefix("/") ? "/" : ""
        return literal.isEmpty ? start : start + literal.joined(separator: "/") + "/"
    }
}
