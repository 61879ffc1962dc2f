/// The variables of a pipeline (`vars:` and `--var`) and the environment, and the `${…}`
/// substitution that uses them.
///
/// `${name}` is a variable, `${env.NAME}` an environment variable, `${item}` the current item of
/// a `foreach` operation and `${item.field}` one of its fields; `$${` writes a literal `${`. A variable's value may use
/// other
/// variables; a list variable can only stand alone, as a `foreach` value.
package struct Variables {
    /// A variable's value as declared.
    package enum Value {
        case text(YAMLScalar)
        case list([YAMLScalar], SourceLocation)
    }

    /// What `${item}` means while substituting.
    package enum ItemBinding {
        /// Not inside a `foreach` operation: `${item}` is an error.
        case unavailable
        /// Inside a `foreach` operation but before expansion: keep `${item}` as written.
        case deferred
        /// Expanding one instance.
        case bound(ForeachItem)
    }

    package var values: [String: Value]
    package var environment: [String: String]

    /// The variables `values`, with `environment` for `${env.…}`.
    package init(values: [String: Value], environment: [String: String]) {
        self.values = values
        self.environment = environment
    }

    /// The deepest chain of variables whose values use variables: deep enough for any real
    /// pipeline, shallow enough that substituting (which recurses) never exhausts a stack.
    static let maximumDepth = 100
    /// The most UTF-8 bytes one substituted value may grow to: values that double at every
    /// level (`v1: "${v2}${v2}"`) would otherwise exhaust memory in a few dozen levels.
    static let maximumLength = 16 << 20

    /// The state of one substitution: the chain of variables being resolved, and the value (nil
    /// if it failed) of each variable resolved so far, so a variable used many times, or at
    /// every level of a chain (`v1: "${v2}${v2}"`), is resolved once.
    private struct Resolution {
        var visiting: [String] = []
        var results: [String: String?] = [:]
    }

    /// Substitutes every `${…}` in `scalar`; nil (with diagnostics added) if any is undefined.
    package func substitute(
        _ scalar: YAMLScalar, item: ItemBinding, diagnostics: inout [Diagnostic]
    ) -> String? {
        var resolution = Resolution()
        return substitute(scalar, item: item, resolution: &resolution, diagnostics: &diagnostics)
    }

    /// The items of a list variable referenced as exactly `${name}`, or nil if `scalar` is not
    /// such a reference.
    package func listReference(_ scalar: YAMLScalar) -> (name: String, items: [YAMLScalar])? {
        let text = scalar.text
        guard text.hasPrefix("${"), text.hasSuffix("}"), text.count > 3 else { return nil }
        let name = String(text.dropFirst(2).dropLast())
        guard case .list(let items, _) = values[name] else { return nil }
        return (name, items)
    }

    private func substitute(
        _ scalar: YAMLScalar, item: ItemBinding, resolution: inout Resolution,
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
            if let value = resolve(name, at: location, item: item, resolution: &resolution, diagnostics: &diagnostics) {
                output += value
                guard output.utf8.count <= Self.maximumLength else {
                    diagnostics.append(
                        .error(
                            "substituting '${\(name)}' makes a value longer than \(Self.maximumLength) bytes",
                            at: location))
                    return nil
                }
            } else {
                failed = true
            }
        }
        return failed ? nil : output
    }

    private func resolve(
        _ name: String, at location: SourceLocation, item: ItemBinding, resolution: inout Resolution,
        diagnostics: inout [Diagnostic]
    ) -> String? {
        if name == "item" || name.hasPrefix("item.") {
            return Self.resolve(item: name, item, at: location, diagnostics: &diagnostics)
        }
        if name.hasPrefix("env.") {
            let variable = String(name.dropFirst(4))
            guard let value = environment[variable] else {
                diagnostics.append(
                    .error("environment variable \(DisplayText.quoted(variable)) is not set", at: location))
                return nil
            }
            return value
        }
        switch values[name] {
        case .text(let value):
            if let known = resolution.results[name] { return known }
            guard !resolution.visiting.contains(name) else {
                diagnostics.append(.error("variable '\(name)' refers to itself", at: location))
                return nil
            }
            guard resolution.visiting.count < Self.maximumDepth else {
                diagnostics.append(
                    .error(
                        "variables nest more than \(Self.maximumDepth) deep, from '\(resolution.visiting[0])' to "
                            + "'\(name)'",
                        at: location))
                return nil
            }
            resolution.visiting.append(name)
            let result = substitute(value, item: item, resolution: &resolution, diagnostics: &diagnostics)
            resolution.visiting.removeLast()
            resolution.results[name] = .some(result)
            return result
        case .list:
            diagnostics.append(
                .error(
                    "variable '\(name)' is a list; use it on its own, as in 'foreach: ${\(name)}'",
                    at: location))
            return nil
        case nil:
            let known = Array(values.keys) + ["item"]
            diagnostics.append(
                .error(
                    "undefined variable \(DisplayText.quoted(name))" + Suggestion.clause(for: name, in: known),
                    at: location))
            return nil
        }
    }

    /// `${item}` or `${item.field}`.
    private static func resolve(
        item name: String, _ item: ItemBinding, at location: SourceLocation, diagnostics: inout [Diagnostic]
    ) -> String? {
        switch item {
        case .deferred:
            return "${\(name)}"
        case .unavailable:
            diagnostics.append(.error("'${\(name)}' is only defined in an operation with 'foreach'", at: location))
            return nil
        case .bound(let item):
            guard name != "item" else { return item.value }
            let field = String(name.dropFirst(5))
            if let value = item.fields[field] { return value }
            let known = item.fields.keys.sorted()
            let fields =
                known.isEmpty
                ? "the items of this 'foreach' have no fields"
                : "its items have " + known.joined(separator: ", ")
            diagnostics.append(.error("'${\(name)}' is not defined (\(fields))", at: location))
            return nil
        }
    }
}
