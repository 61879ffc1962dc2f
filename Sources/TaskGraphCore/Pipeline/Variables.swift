/// The variables of a pipeline (`vars:` and `--var`) and the environment, and the `${…}`
/// substitution that uses them.
///
/// `${name}` is a variable, `${env.NAME}` an environment variable, `${item}` the current item of
/// a `foreach` operation; `$${` writes a literal `${`. A variable's value may use other
/// variables; a list variable can only stand alone, as a `foreach` value.
struct Variables {
    /// A variable's value as declared.
    enum Value {
        case text(YAMLScalar)
        case list([YAMLScalar], SourceLocation)
    }

    /// What `${item}` means while substituting.
    enum ItemBinding {
        /// Not inside a `foreach` operation: `${item}` is an error.
        case unavailable
        /// Inside a `foreach` operation but before expansion: keep `${item}` as written.
        case deferred
        /// Expanding one instance.
        case bound(String)
    }

    var values: [String: Value]
    var environment: [String: String]

    /// Substitutes every `${…}` in `scalar`; nil (with diagnostics added) if any is undefined.
    func substitute(
        _ scalar: YAMLScalar, item: ItemBinding, diagnostics: inout [Diagnostic]
    ) -> String? {
        var visiting: Set<String> = []
        return substitute(scalar, item: item, visiting: &visiting, diagnostics: &diagnostics)
    }

    /// The items of a list variable referenced as exactly `${name}`, or nil if `scalar` is not
    /// such a reference.
    func listReference(_ scalar: YAMLScalar) -> (name: String, items: [YAMLScalar])? {
        let text = scalar.text
        guard text.hasPrefix("${"), text.hasSuffix("}"), text.count > 3 else { return nil }
        let name = String(text.dropFirst(2).dropLast())
        guard case .list(let items, _) = values[name] else { return nil }
        return (name, items)
    }

    private func substitute(
        _ scalar: YAMLScalar, item: ItemBinding, visiting: inout Set<String>,
        diagnostics: inout [Diagnostic]
    ) -> String? {
        let text = scalar.text
        // Most values have no `$`: decided on the bytes, without walking an index.
        let dollar = UInt8(ascii: "$")
        guard text.utf8.withContiguousStorageIfAvailable({ $0.contains(dollar) }) ?? text.utf8.contains(dollar) else {
            return text
        }
        var output = ""
        var failed = false
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            if rest.hasPrefix("$${") {
                output += "${"
                index = text.index(index, offsetBy: 3)
                continue
            }
            guard rest.hasPrefix("${") else {
                output.append(text[index])
                index = text.index(after: index)
                continue
            }
            let offset = text.distance(from: text.startIndex, to: index)
            let location = scalar.location(atOffset: offset)
            guard let close = rest.firstIndex(of: "}") else {
                diagnostics.append(.error("'${' without a closing '}'", at: location))
                return nil
            }
            let name = String(rest[rest.index(index, offsetBy: 2)..<close])
            index = text.index(after: close)
            if let value = resolve(name, at: location, item: item, visiting: &visiting, diagnostics: &diagnostics) {
                output += value
            } else {
                failed = true
            }
        }
        return failed ? nil : output
    }

    private func resolve(
        _ name: String, at location: SourceLocation, item: ItemBinding, visiting: inout Set<String>,
        diagnostics: inout [Diagnostic]
    ) -> String? {
        if name == "item" {
            switch item {
            case .bound(let value): return value
            case .deferred: return "${item}"
            case .unavailable:
                diagnostics.append(.error(
                    "'${item}' is only defined in an operation with 'foreach'", at: location))
                return nil
            }
        }
        if name.hasPrefix("env.") {
            let variable = String(name.dropFirst(4))
            guard let value = environment[variable] else {
                diagnostics.append(.error("environment variable '\(variable)' is not set", at: location))
                return nil
            }
            return value
        }
        switch values[name] {
        case .text(let value):
            guard visiting.insert(name).inserted else {
                diagnostics.append(.error("variable '\(name)' refers to itself", at: location))
                return nil
            }
            defer { visiting.remove(name) }
            return substitute(value, item: item, visiting: &visiting, diagnostics: &diagnostics)
        case .list:
            diagnostics.append(.error(
                "variable '\(name)' is a list; use it on its own, as in 'foreach: ${\(name)}'",
                at: location))
            return nil
        case nil:
            let known = Array(values.keys) + ["item"]
            diagnostics.append(.error(
                "undefined variable '\(name)'" + Suggestion.clause(for: name, in: known), at: location))
            return nil
        }
    }
}
