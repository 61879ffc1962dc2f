/// Checks YAML values against declared parameter types, substituting `${…}` first.
package struct ParameterChecker {
    package var variables: Variables
    package var item: Variables.ItemBinding

    /// A checker substituting `variables`, with `item` for `${item}`.
    package init(variables: Variables, item: Variables.ItemBinding) {
        self.variables = variables
        self.item = item
    }

    /// The checked value of `value` for a parameter `name` of `type`, or nil with diagnostics.
    /// - Parameter subject: who the parameter belongs to, e.g. `operation 'tone'`.
    package func check(
        _ value: YAMLValue, as type: ParameterType, name: String, subject: @autoclosure () -> String,
        diagnostics: inout [Diagnostic]
    ) -> ParameterValue? {
        // Built only for a message: most values are fine, and this runs for every parameter.
        func prefix() -> String { "\(subject()): '\(name)'" }
        switch type {
        case .stringList(let minimumCount):
            return checkList(value, minimumCount: minimumCount, prefix: prefix, diagnostics: &diagnostics)
        case .stringMap:
            return checkMap(value, prefix: prefix, diagnostics: &diagnostics)
        default:
            guard let scalar = value.scalar, !scalar.isNull else {
                diagnostics.append(
                    .error(
                        "\(prefix()) must be \(Self.expectation(for: type)), not \(value.kindDescription)",
                        at: value.location))
                return nil
            }
            guard let text = substitute(scalar, prefix: prefix, diagnostics: &diagnostics) else {
                return nil
            }
            guard let checked = Self.convert(text, to: type) else {
                diagnostics.append(
                    .error(
                        "\(prefix()) must be \(Self.expectation(for: type)), not \(DisplayText.quoted(text))"
                            + hint(text, type),
                        at: scalar.location))
                return nil
            }
            return checked
        }
    }

    private func checkList(
        _ value: YAMLValue, minimumCount: Int, prefix: () -> String, diagnostics: inout [Diagnostic]
    ) -> ParameterValue? {
        guard case .sequence(let elements, let location) = value else {
            diagnostics.append(
                .error("\(prefix()) must be a list of strings, not \(value.kindDescription)", at: value.location))
            return nil
        }
        var items: [String] = []
        for element in elements {
            guard let scalar = element.scalar else {
                diagnostics.append(
                    .error(
                        "\(prefix()) must contain only strings, not \(element.kindDescription)", at: element.location))
                continue
            }
            if let text = substitute(scalar, prefix: prefix, diagnostics: &diagnostics) {
                items.append(text)
            }
        }
        guard items.count == elements.count else { return nil }
        guard items.count >= minimumCount else {
            let noun = minimumCount == 1 ? "element" : "elements"
            diagnostics.append(.error("\(prefix()) must have at least \(minimumCount) \(noun)", at: location))
            return nil
        }
        return .list(items)
    }

    private func checkMap(
        _ value: YAMLValue, prefix: () -> String, diagnostics: inout [Diagnostic]
    ) -> ParameterValue? {
        guard case .mapping(let pairs, _) = value else {
            diagnostics.append(
                .error("\(prefix()) must be a mapping of strings, not \(value.kindDescription)", at: value.location))
            return nil
        }
        var map: [String: String] = [:]
        for pair in pairs {
            guard let scalar = pair.value.scalar else {
                diagnostics.append(
                    .error(
                        "\(prefix()): '\(pair.key.text)' must be a string, not \(pair.value.kindDescription)",
                        at: pair.value.location))
                continue
            }
            if let text = substitute(scalar, prefix: { "\(prefix()): '\(pair.key.text)'" }, diagnostics: &diagnostics) {
                map[pair.key.text] = text
            }
        }
        return map.count == pairs.count ? .map(map) : nil
    }

    /// `scalar` with its variables substituted, or nil with diagnostics. A NUL character is
    /// refused: arguments, paths and environment values end at the first one, so the program
    /// or file would silently see less than was written.
    private func substitute(
        _ scalar: YAMLScalar, prefix: () -> String, diagnostics: inout [Diagnostic]
    ) -> String? {
        guard let text = variables.substitute(scalar, item: item, diagnostics: &diagnostics) else { return nil }
        guard !text.utf8.contains(0) else {
            diagnostics.append(.error("\(prefix()) must not contain a NUL character ('\\0')", at: scalar.location))
            return nil
        }
        return text
    }

    private func hint(_ text: String, _ type: ParameterType) -> String {
        switch type {
        case .choice(let words): Suggestion.clause(for: text, in: words)
        case .namedInteger(let names, _): Suggestion.clause(for: text, in: names.keys)
        case .outputPath where text.hasSuffix("/"): " (a file's path, which cannot end in '/')"
        default: ""
        }
    }

    /// `text` as a value of `type`, or nil if it is not one.
    package static func convert(_ text: String, to type: ParameterType) -> ParameterValue? {
        switch type {
        case .string, .inputPath:
            return .string(text)
        case .integer(let range):
            guard let number = Int(text), range.contains(number) else { return nil }
            return .integer(number)
        case .number(let range):
            guard let number = Double(text), number.isFinite, range.contains(number) else { return nil }
            return .number(number)
        case .boolean:
            switch text {
            case "true", "yes", "on": return .boolean(true)
            case "false", "no", "off": return .boolean(false)
            default: return nil
            }
        case .duration:
            return DurationParser.parse(text).map(ParameterValue.duration)
        case .choice(let words):
            return words.contains(text) ? .string(text) : nil
        case .namedInteger(let names, let range):
            return names[text].map(ParameterValue.integer) ?? convert(text, to: .integer(range))
        case .outputPath:
            return OutputPath.isContained(text) ? .string(text) : nil
        case .stringList, .stringMap:
            return nil
        }
    }

    /// What a value of `type` must look like, for messages.
    package static func expectation(for type: ParameterType) -> String {
        switch type {
        case .string: "a string"
        case .inputPath: "a file path"
        case .integer(let range) where range.upperBound == .max: "a whole number of at least \(range.lowerBound)"
        case .integer(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .number(let range): "a number from \(format(range.lowerBound)) to \(format(range.upperBound))"
        case .boolean: "true or false"
        case .duration: "a duration such as 30s, 500ms or 2m"
        case .choice(let words): "one of " + words.joined(separator: ", ")
        case .namedInteger(let names, let range):
            ParameterType.sortedNames(names).joined(separator: ", ") + " or " + expectation(for: .integer(range))
        case .outputPath: "a relative path that stays inside the output directory"
        case .stringList: "a list of strings"
        case .stringMap: "a mapping of strings"
        }
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
