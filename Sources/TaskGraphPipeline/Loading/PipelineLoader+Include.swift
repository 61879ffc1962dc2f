import Foundation
import TaskGraphBasics

/// `include:`: other pipeline files whose operations join this one under a name, `photos.tilt`
/// for `tilt` of the file included as `photos`. An included file is a pipeline file of its own
/// (it may be validated and run alone); its variables and `defaults:` apply to its operations
/// only, and an include's `vars:` give its variables values. Its `needs:` and `input:` name
/// its own operations (and through their names, those of the files it includes).
extension PipelineLoader {
    /// One file being read, and where the file that includes it names it.
    package struct IncludeLink {
        /// The file's absolute, normalised path: what a cycle is found by.
        var path: String
        /// The file as diagnostics name it.
        var display: String
        /// Where its includer names it (nil for the pipeline file).
        var location: SourceLocation?
    }

    /// The most files a pipeline may include, counting each time a file is included: far more
    /// than a real pipeline splits into, few enough that files including each other twice at
    /// every level of a deep tree are refused before they take hours.
    package static let maximumIncludedFiles = 1_000

    /// Top-level keys only the pipeline file (the one run) may set.
    package static let rootOnlyKeys = ["output", "pools", "executor", "store"]

    /// Whether the file being read is included by another.
    package var isIncluded: Bool { !chain.isEmpty }

    /// An error for every key of an included file that only the pipeline file may set.
    package func rootOnlyKeyDiagnostics(_ keys: KeyedPairs) -> [Diagnostic] {
        keys.pairs.filter { Self.rootOnlyKeys.contains($0.key.text) }.map { pair in
            .error(
                "'\(pair.key.text)' may only be set in the pipeline file that is run, not in an included file",
                at: pair.key.location)
        }
    }

    /// Each file `value` (the `include:` mapping of `file`) names, read, with its name.
    package func readIncludes(
        _ value: YAMLValue, of file: String, variables: Variables, diagnostics: inout [Diagnostic]
    ) -> [(name: String, spec: PipelineSpec)] {
        guard case .mapping(let pairs, _) = value else {
            diagnostics.append(
                .error(
                    "'include' must be a mapping of names to pipeline files, not \(value.kindDescription)",
                    at: value.location))
            return []
        }
        let current = File(
            link: chain.last ?? IncludeLink(path: Self.absolutePath(file), display: file, location: nil),
            variables: variables)
        var budget = includeBudget
        return pairs.compactMap { pair in
            guard Self.isValidIncludeName(pair.key.text) else {
                diagnostics.append(
                    .error(
                        "invalid include name \(DisplayText.quoted(pair.key.text)); use letters, digits, '-' and '_'",
                        at: pair.key.location))
                return nil
            }
            guard budget > 0 else {
                diagnostics.append(
                    .error(
                        "include '\(pair.key.text)': the pipeline includes more than \(Self.maximumIncludedFiles) "
                            + "files in all",
                        at: pair.key.location))
                return nil
            }
            guard let entry = readEntry(pair, in: current, diagnostics: &diagnostics),
                let spec = load(entry, from: current, budget: budget - 1, diagnostics: &diagnostics)
            else { return nil }
            budget -= 1 + spec.includedFiles.count
            return (pair.key.text, spec)
        }
    }

    /// The file reading includes, and its variables.
    private struct File {
        var link: IncludeLink
        var variables: Variables
    }

    /// One include as written: the file to read, named relative to its includer, and values
    /// for its variables.
    private struct Entry {
        var name: String
        var path: Located<String>
        var values: [(name: YAMLScalar, value: Variables.Value)]
    }

    private func readEntry(_ pair: YAMLPair, in current: File, diagnostics: inout [Diagnostic]) -> Entry? {
        let subject = "include '\(pair.key.text)'"
        var file: YAMLValue? = pair.value
        var vars: YAMLValue?
        if case .mapping(let pairs, let location) = pair.value {
            let keys = KeyedPairs(pairs)
            diagnostics += keys.unknownKeyDiagnostics(allowed: ["file", "vars"], subject: subject)
            (file, vars) = (keys["file"], keys["vars"])
            if file == nil {
                diagnostics.append(.error("\(subject): missing required key 'file'", at: location))
                return nil
            }
        }
        guard let scalar = file?.scalar, !scalar.isNull else {
            let shown = file ?? pair.value
            diagnostics.append(
                .error(
                    "\(subject) must be a pipeline file's path or a mapping with 'file' and 'vars', not "
                        + "\(shown.kindDescription)",
                    at: shown.location))
            return nil
        }
        guard let path = current.variables.substitute(scalar, item: .unavailable, diagnostics: &diagnostics) else {
            return nil
        }
        let values =
            vars.map { readValues($0, subject: subject, variables: current.variables, diagnostics: &diagnostics) } ?? []
        return Entry(name: pair.key.text, path: Located(path, at: scalar.location), values: values)
    }

    /// The include's `vars:`, substituted with the includer's variables and escaped so the
    /// included file's own substitution leaves them as they are.
    private func readValues(
        _ value: YAMLValue, subject: String, variables: Variables, diagnostics: inout [Diagnostic]
    ) -> [(name: YAMLScalar, value: Variables.Value)] {
        guard case .mapping(let pairs, _) = value else {
            diagnostics.append(
                .error(
                    "\(subject): 'vars' must be a mapping of names to values, not \(value.kindDescription)",
                    at: value.location))
            return []
        }
        func substituted(_ scalar: YAMLScalar) -> YAMLScalar? {
            variables.substitute(scalar, item: .unavailable, diagnostics: &diagnostics).map {
                YAMLScalar(
                    text: $0.replacingOccurrences(of: "${", with: "$${"), location: scalar.location, style: .block)
            }
        }
        return pairs.compactMap { pair in
            if let scalar = pair.value.scalar { return substituted(scalar).map { (pair.key, .text($0)) } }
            guard case .sequence(let elements, let location) = pair.value, elements.allSatisfy({ $0.scalar != nil })
            else {
                diagnostics.append(
                    .error(
                        "\(subject): variable '\(pair.key.text)' must be a string or a list of strings",
                        at: pair.value.location))
                return nil
            }
            let items = elements.compactMap { $0.scalar.flatMap(substituted) }
            return items.count == elements.count ? (pair.key, .list(items, location)) : nil
        }
    }

    /// The included file read and checked with its own variables, the files it includes
    /// counted against `budget`; nil (with a diagnostic) when it cannot be read or closes a
    /// cycle of includes.
    private func load(_ entry: Entry, from current: File, budget: Int, diagnostics: inout [Diagnostic]) -> PipelineSpec?
    {
        let display = Self.displayPath(entry.path.value, from: current.link.display)
        let link = IncludeLink(path: Self.absolutePath(display), display: display, location: entry.path.location)
        let chain = self.chain.isEmpty ? [current.link] : self.chain
        if let start = chain.firstIndex(where: { $0.path == link.path }) {
            let links = Array(chain[start...]) + [link]
            let notes = links.indices.dropFirst().map { index in
                Diagnostic.note(
                    "'\(links[index - 1].display)' includes '\(links[index].display)' here",
                    at: links[index].location ?? entry.path.location)
            }
            diagnostics.append(
                .error(
                    "include cycle: " + links.map(\.display).joined(separator: " -> "), at: entry.path.location,
                    notes: notes))
            return nil
        }
        let text: String
        do {
            text = try PipelineText.decode(FileIO.read(display), file: display)
        } catch let error as PipelineError {
            diagnostics += error.diagnostics
            return nil
        } catch {
            diagnostics.append(.error("include '\(entry.name)': \(error)", at: entry.path.location))
            return nil
        }
        var loader = PipelineLoader(declarations: declarations, environment: environment, overrides: [:])
        loader.chain = chain + [link]
        loader.includedValues = entry.values
        loader.includeBudget = budget
        let (spec, found) = loader.load(text: text, file: display)
        diagnostics += found
        return spec
    }

    /// Sets the values the include gives this file's variables, each of which it must declare.
    package func applyIncludedValues(to values: inout [String: Variables.Value], diagnostics: inout [Diagnostic]) {
        guard let file = chain.last?.display else { return }
        let declared = Array(values.keys)
        for (name, value) in includedValues {
            guard values[name.text] != nil else {
                diagnostics.append(
                    .error(
                        "'\(file)' declares no variable '\(name.text)' under 'vars'"
                            + Suggestion.clause(for: name.text, in: declared),
                        at: name.location))
                continue
            }
            values[name.text] = value
        }
    }

    /// `path` as named relative to the directory of the file `includer` (as diagnostics name
    /// it), with `.` and `dir/..` components removed where the text allows.
    package static func displayPath(_ path: String, from includer: String) -> String {
        let directory = (includer as NSString).deletingLastPathComponent
        let joined = path.hasPrefix("/") || directory.isEmpty ? path : directory + "/" + path
        var components: [Substring] = []
        for component in joined.split(separator: "/", omittingEmptySubsequences: false) {
            if component == "." || (component.isEmpty && !components.isEmpty) { continue }
            if component == "..", let last = components.last, last != "..", !last.isEmpty {
                components.removeLast()
            } else {
                components.append(component)
            }
        }
        return components.joined(separator: "/")
    }

    private static func absolutePath(_ path: String) -> String {
        PathResolver.normalized(PathResolver.resolve(path, in: FileManager.default.currentDirectoryPath))
    }

    /// Letters, digits, `-` and `_`, starting with a letter, digit or `_`: an operation id
    /// without `.`, so `name.id` splits one way.
    private static func isValidIncludeName(_ name: String) -> Bool {
        !name.contains(".") && OperationSpecReader.isValidID(name)
    }
}
