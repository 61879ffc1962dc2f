import ArgumentParser
import TaskGraphCore

/// Shell completion of operation ids (targets, `--force`, `--only`, `explain`'s ids) from the
/// pipeline file on the command line being completed.
enum OperationIDCompletion {
    /// The completion the generated bash, zsh and fish scripts ask taskgraph for.
    static let kind = CompletionKind.custom { words, index, prefix async in
        await candidates(words: words, completing: index, prefix: prefix)
    }

    /// The ids starting with `prefix`: operation ids (`tilt`), and instance ids (`tilt[lake]`)
    /// once the prefix has a `[`. None when no pipeline file is on the line or it does not load.
    /// - Parameters:
    ///   - words: the shell words of the command line, the program's name first.
    ///   - index: the position in `words` of the word being completed.
    static func candidates(words: [String], completing index: Int, prefix: String) async -> [String] {
        let ids = try? await BlockingIO.run { () -> [String] in
            guard let (file, variables) = pipelineFile(in: words, skipping: index) else { return [] }
            let options = PipelineOptions(variables: variables, registry: .builtIn)
            return try Pipeline.load(file: file, options: options).graph.nodes.map(\.id)
        }
        guard let ids else { return [] }
        var operations: [String] = []
        var seen: Set<String> = []
        for id in ids {
            let shown = prefix.contains("[") ? id : String(id.prefix { $0 != "[" })
            if shown.hasPrefix(prefix), seen.insert(shown).inserted { operations.append(shown) }
        }
        return operations
    }

    /// The first word after the subcommand that is not an option and names a regular file, with
    /// the `--var` values of the line.
    private static func pipelineFile(in words: [String], skipping index: Int) -> (String, [String: String])? {
        var file: String?
        var variables: [String: String] = [:]
        var position = 2
        while position < words.count {
            let word = words[position]
            var assignment: String?
            if word == "--var", position + 1 < words.count {
                position += 1
                assignment = words[position]
            } else if word.hasPrefix("--var=") {
                assignment = String(word.dropFirst("--var=".count))
            } else if file == nil, position != index, !word.hasPrefix("-"), FileKind(at: word) == .regular {
                file = word
            }
            if let assignment, let equals = assignment.firstIndex(of: "=") {
                variables[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
            }
            position += 1
        }
        return file.map { ($0, variables) }
    }
}
