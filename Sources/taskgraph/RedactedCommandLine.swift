import TaskGraphCore

/// The command line as the events' `run_started.command` and the HTML report show it (both are
/// meant to be shared, attached to tickets): URLs without credentials or secret query values,
/// the value of a `--var` whose name looks secret, and every secret the run's operations use
/// (a URL's credentials and secret query values, request header values, the values of
/// secret-named map entries) wherever it appears, as `***`; and the value of every
/// `--remote-header` (`Authorization: ***`).
enum RedactedCommandLine {
    /// `arguments` (`CommandLine.arguments`) redacted for a run of `graph`.
    static func redact(_ arguments: [String], graph: ExecutionGraph) -> [String] {
        let secrets = secretValues(in: graph).sorted { $0.count > $1.count }
        var afterVar = false
        var afterHeader = false
        return arguments.map { argument in
            var text = RedactedURL.redact(argument)
            if afterVar {
                text = redactAssignment(text)
            } else if text.hasPrefix("--var=") {
                text = "--var=" + redactAssignment(String(text.dropFirst("--var=".count)))
            } else if afterHeader {
                text = redactHeader(text)
            } else if text.hasPrefix("--remote-header=") {
                text = "--remote-header=" + redactHeader(String(text.dropFirst("--remote-header=".count)))
            }
            afterHeader = argument == "--remote-header"
            for secret in secrets where text.contains(secret) {
                text = text.replacingOccurrences(of: secret, with: "***")
            }
            afterVar = argument == "--var"
            return text
        }
    }

    /// A header `Name: value` as `Name: ***`.
    private static func redactHeader(_ header: String) -> String {
        guard let colon = header.firstIndex(of: ":") else { return "***" }
        return header[...colon] + " ***"
    }

    /// `name=value` with the value `***` when the name looks secret (`token`, `api_key`…).
    private static func redactAssignment(_ assignment: String) -> String {
        guard let equals = assignment.firstIndex(of: "="), RedactedURL.isSecret(String(assignment[..<equals])),
            assignment.index(after: equals) < assignment.endIndex
        else { return assignment }
        return assignment[...equals] + "***"
    }

    /// The secrets the parameters of `graph`'s operations hold, each at least 3 characters
    /// long (a shorter one would blank out unrelated text; it is not shown by the operations
    /// either way).
    private static func secretValues(in graph: ExecutionGraph) -> Set<String> {
        var secrets = Set<String>()
        for node in graph.nodes {
            for (name, value) in node.setup?.parameters.values ?? [:] {
                switch value {
                case .string(let text): secrets.formUnion(RedactedURL.secrets(in: text))
                case .list(let items): for item in items { secrets.formUnion(RedactedURL.secrets(in: item)) }
                case .map(let pairs):
                    guard case .map(let shown) = value.redacted else { continue }
                    for (key, text) in pairs where name == "headers" || shown[key] != text {
                        secrets.insert(text)
                        secrets.formUnion(RedactedURL.secrets(in: text))
                    }
                case .integer, .number, .boolean, .duration: continue
                }
            }
        }
        return secrets.filter { $0.count >= 3 }
    }
}
