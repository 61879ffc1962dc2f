import TaskGraphBasics

/// Reads the `operations:` mapping into `OperationSpec`s, checking every key it can without
/// knowing the rest of the graph.
package struct OperationSpecReader {
    package let declarations: OperationDeclarations
    package let variables: Variables
    /// `defaults:` values, checked once: `retries`, `timeout`, `pool`, `cache`, `priority`.
    package let defaults: [String: (value: ParameterValue, location: SourceLocation)]

    /// The types of the engine settings an operation may set (some of them under `defaults:`),
    /// in the order they are read.
    package static let settingTypes: [(name: String, type: ParameterType)] = [
        ("retries", .integer(0...100)), ("timeout", .duration), ("pool", .string), ("input", .string),
        ("cache", .boolean), ("priority", PipelineKeys.priorityType), ("exclusive", PipelineKeys.exclusiveType),
        ("when", PipelineKeys.whenType),
    ]

    /// The keys every operation accepts (`PipelineKeys.operation(for:)`), worked out once.
    private let commonKeys: [String]
    /// The cluster keys and their types (`ClusterSettings.types(in:)`), worked out once.
    package let clusterTypes: [(name: String, type: ParameterType)]

    package init(
        declarations: OperationDeclarations, variables: Variables,
        defaults: [String: (value: ParameterValue, location: SourceLocation)]
    ) {
        self.declarations = declarations
        self.variables = variables
        self.defaults = defaults
        commonKeys = PipelineKeys.operation(for: declarations).map(\.name)
        clusterTypes = ClusterSettings.types(in: declarations)
    }

    /// `needs` lists up to this long find repeated entries by a linear scan instead of a set.
    private static let linearNeedsLimit = 16

    /// Every operation of `value` (which should be a mapping of ids to operations), in file order.
    package func readAll(_ value: YAMLValue, diagnostics: inout [Diagnostic]) -> [OperationSpec] {
        guard case .mapping(let pairs, let location) = value else {
            diagnostics.append(
                .error(
                    "'operations' must be a mapping of operation ids to operations, not \(value.kindDescription)",
                    at: value.location))
            return []
        }
        if pairs.isEmpty {
            diagnostics.append(.error("'operations' is empty; a pipeline needs at least one operation", at: location))
        }
        // Operations are read independently, a chunk per core; chunks are joined in file order.
        let (operations, found) = ParallelBands.collect(count: pairs.count) { range, operations, found in
            for index in range { // not `for pair in`: that copies every pair
                if let operation = read(id: pairs[index].key, value: pairs[index].value, diagnostics: &found) {
                    operations.append(operation)
                }
            }
        }
        diagnostics += found
        return operations
    }

    private func read(id: YAMLScalar, value: YAMLValue, diagnostics: inout [Diagnostic]) -> OperationSpec? {
        guard Self.isValidID(id.text) else {
            diagnostics.append(
                .error(
                    "invalid operation id \(DisplayText.quoted(id.text)); use letters, digits, '-', '_' and '.'",
                    at: id.location))
            return nil
        }
        // Named in messages only: built when one is reported.
        func subject() -> String { "operation '\(id.text)'" }
        guard case .mapping(let pairs, let location) = value else {
            diagnostics.append(
                .error(
                    "\(subject()) must be a mapping with at least 'op', not \(value.kindDescription)",
                    at: value.location))
            return nil
        }
        let keys = KeyedPairs(pairs)
        var spec = OperationSpec(id: Located(id.text, at: id.location), needs: [], parameters: [])
        let type: OperationDeclaration?
        (spec.type, type) = readType(keys["op"], subject: subject(), at: location, diagnostics: &diagnostics)
        (spec.needs, spec.needsLocation) = readNeeds(keys["needs"], id: id.text, diagnostics: &diagnostics)
        spec.description = keys["description"]?.scalar.flatMap { $0.isNull ? nil : $0.text }
        spec.foreach = keys["foreach"].flatMap { readForeach($0, subject: subject(), diagnostics: &diagnostics) }
        let checker = ParameterChecker(variables: variables, item: spec.foreach == nil ? .unavailable : .deferred)
        for (key, type) in Self.settingTypes {
            let setting: (ParameterValue, SourceLocation)?
            if let value = keys[key] {
                setting = checker.check(value, as: type, name: key, subject: subject(), diagnostics: &diagnostics)
                    .map { ($0, value.location) }
            } else {
                setting = defaults.isEmpty ? nil : defaults[key]
            }
            if let (value, at) = setting { Self.apply(key, value, at: at, to: &spec) }
        }
        spec.settings.cluster = readClusterSettings(
            keys, checker: checker, subject: subject(), diagnostics: &diagnostics)
        for pair in pairs where !commonKeys.contains(pair.key.text) {
            guard let type else { continue }
            guard type.parameter(named: pair.key.text) == nil else {
                spec.parameters.append(pair)
                continue
            }
            let message =
                if let advice = type.removedParameters[pair.key.text] {
                    "\(DisplayText.quoted(pair.key.text)) is no longer supported for '\(type.name)': \(advice)"
                } else {
                    "unknown key \(DisplayText.quoted(pair.key.text)) for '\(type.name)'"
                        + Suggestion.clause(for: pair.key.text, in: commonKeys + type.parameters.map(\.name))
                }
            diagnostics.append(.error("\(subject()): \(message)", at: pair.key.location))
        }
        if let type {
            for parameter in type.parameters where parameter.isRequired && keys[parameter.name] == nil {
                diagnostics.append(
                    .error(
                        "\(subject()): missing required parameter '\(parameter.name)' for '\(type.name)'",
                        at: spec.type?.location ?? location))
            }
        }
        return spec
    }

    /// Sets the engine setting `key` of `spec` to its checked `value`, written at `at`.
    private static func apply(_ key: String, _ value: ParameterValue, at: SourceLocation, to spec: inout OperationSpec)
    {
        switch (key, value) {
        case ("retries", .integer(let retries)): spec.settings.retries = retries
        case ("timeout", .duration(let timeout)): spec.settings.timeout = timeout
        case ("pool", .string(let pool)): (spec.settings.pool, spec.poolLocation) = (pool, at)
        case ("input", .string(let input)): spec.input = Located(input, at: at)
        case ("cache", .boolean(let enabled)): (spec.settings.cache, spec.settings.cacheRequested) = (enabled, enabled)
        case ("priority", .integer(let priority)): spec.settings.priority = priority
        case ("exclusive", .string(let word)): spec.settings.exclusive = Exclusivity(rawValue: word) ?? .shared
        case ("when", .string(let word)):
            (spec.settings.when, spec.whenLocation) = (TriggerRule(rawValue: word) ?? .success, at)
        default: break
        }
    }

    /// The `op:` value as written, and the operation type it names (nil if none).
    private func readType(
        _ value: YAMLValue?, subject: @autoclosure () -> String, at location: SourceLocation,
        diagnostics: inout [Diagnostic]
    ) -> (Located<String>?, OperationDeclaration?) {
        guard let value else {
            diagnostics.append(.error("\(subject()): missing required key 'op'", at: location))
            return (nil, nil)
        }
        guard let scalar = value.scalar, !scalar.isNull else {
            diagnostics.append(
                .error(
                    "\(subject()): 'op' must be an operation type name, not \(value.kindDescription)",
                    at: value.location))
            return (nil, nil)
        }
        let type = declarations[scalar.text]
        if type == nil {
            diagnostics.append(
                .error(
                    "\(subject()): unknown operation type \(DisplayText.quoted(scalar.text))"
                        + Suggestion.clause(for: scalar.text, in: declarations.types.keys),
                    at: scalar.location))
        }
        return (Located(scalar.text, at: scalar.location), type)
    }

    private func readNeeds(
        _ value: YAMLValue?, id: String, diagnostics: inout [Diagnostic]
    ) -> ([Located<String>], SourceLocation?) {
        guard let value else { return ([], nil) }
        let scalars: [YAMLScalar]
        switch value {
        case .scalar(let scalar) where scalar.isNull: scalars = []
        case .scalar(let scalar): scalars = [scalar]
        case .sequence(let elements, _):
            scalars = elements.compactMap { element in
                guard let scalar = element.scalar, !scalar.isNull else {
                    diagnostics.append(
                        .error(
                            "operation '\(id)': 'needs' entries must be operation ids, not \(element.kindDescription)",
                            at: element.location))
                    return nil
                }
                return scalar
            }
        case .mapping(_, let location):
            diagnostics.append(
                .error(
                    "operation '\(id)': 'needs' must be an operation id or a list of them, not a mapping", at: location)
            )
            return ([], location)
        }
        // Short lists (nearly all) find repeats by scanning the entries kept; long ones hash.
        let hashes = scalars.count > Self.linearNeedsLimit
        var seen: Set<String> = []
        var needs: [Located<String>] = []
        needs.reserveCapacity(scalars.count)
        for scalar in scalars {
            if scalar.text == id {
                diagnostics.append(.error("operation '\(id)' needs itself", at: scalar.location))
            } else if hashes ? !seen.insert(scalar.text).inserted : needs.contains(where: { $0.value == scalar.text }) {
                diagnostics.append(
                    .error(
                        "operation '\(id)' needs \(DisplayText.quoted(scalar.text)) more than once", at: scalar.location
                    ))
            } else {
                needs.append(Located(scalar.text, at: scalar.location))
            }
        }
        return (needs, value.location)
    }

    /// Letters, digits, `-`, `_` and `.`, starting with a letter, digit or `_`.
    package static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, first != "-", first != "." else { return false }
        return id.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
            default: !scalar.isASCII && scalar.properties.isAlphabetic
            }
        }
    }
}
