import TaskGraphBasics

/// Reading `foreach:`: a list, a list variable, `{glob: …}`, `{matrix: …}` or `{from: …}`.
extension OperationSpecReader {
    /// The keys a `foreach:` mapping may have.
    package static let foreachKeys = ["glob", "allow_empty", "matrix", "exclude", "from", "id_field"]

    package func readForeach(_ value: YAMLValue, subject: String, diagnostics: inout [Diagnostic]) -> ForeachSpec? {
        guard case .mapping(let pairs, let location) = value else {
            return readSource(value, subject: subject, diagnostics: &diagnostics)
                .map { ForeachSpec(kind: .single($0), location: value.location) }
        }
        let keys = KeyedPairs(pairs)
        Self.checkKeys(
            pairs, allowed: Self.foreachKeys, of: "\(subject): unknown 'foreach' key", diagnostics: &diagnostics)
        if let from = keys["from"] {
            return readFrom(from, keys: keys, at: location, subject: subject, diagnostics: &diagnostics)
        }
        if let idField = keys["id_field"] {
            diagnostics.append(.error("\(subject): 'id_field' goes with 'from'", at: idField.location))
        }
        switch (keys["glob"], keys["matrix"]) {
        case (.some, .some):
            diagnostics.append(.error("\(subject): 'foreach' takes 'glob' or 'matrix', not both", at: location))
            return nil
        case (.none, .none):
            diagnostics.append(
                .error("\(subject): 'foreach' needs 'glob' (files) or 'matrix' (combinations)", at: location))
            return nil
        case (.some, .none):
            if let exclude = keys["exclude"] {
                diagnostics.append(.error("\(subject): 'exclude' goes with 'matrix'", at: exclude.location))
            }
            return readSource(value, subject: subject, diagnostics: &diagnostics)
                .map { ForeachSpec(kind: .single($0), location: location) }
        case (.none, .some(let matrix)):
            if let allowEmpty = keys["allow_empty"] {
                diagnostics.append(
                    .error("\(subject): 'allow_empty' goes with 'glob', inside the axis", at: allowEmpty.location))
            }
            guard let axes = readAxes(matrix, subject: subject, diagnostics: &diagnostics) else { return nil }
            let exclude = keys["exclude"].map {
                readExclusions($0, axes: axes, subject: subject, diagnostics: &diagnostics)
            }
            return ForeachSpec(kind: .matrix(axes, exclude: exclude ?? []), location: location)
        }
    }

    /// `{from: operation, id_field: field}`: alone, naming an operation.
    private func readFrom(
        _ from: YAMLValue, keys: KeyedPairs, at location: SourceLocation, subject: String,
        diagnostics: inout [Diagnostic]
    ) -> ForeachSpec? {
        for key in ["glob", "matrix", "allow_empty", "exclude"] {
            if let other = keys[key] {
                diagnostics.append(
                    .error("\(subject): 'foreach' takes 'from' alone, not with '\(key)'", at: other.location))
            }
        }
        guard let scalar = from.scalar, !scalar.isNull, Self.isValidID(scalar.text) else {
            diagnostics.append(
                .error("\(subject): 'from' must name an operation, not \(from.kindDescription)", at: from.location))
            return nil
        }
        var idField: String?
        if let field = keys["id_field"] {
            guard let text = field.scalar?.text, !(field.scalar?.isNull ?? true), !text.isEmpty else {
                diagnostics.append(
                    .error("\(subject): 'id_field' must name a field, not \(field.kindDescription)", at: field.location)
                )
                return nil
            }
            idField = text
        }
        let source = ForeachSpec.FromSource(operation: Located(scalar.text, at: scalar.location), idField: idField)
        return ForeachSpec(kind: .single(.from(source)), location: location)
    }

    /// A list, a list variable or `{glob: …, allow_empty: …}`.
    private func readSource(_ value: YAMLValue, subject: String, diagnostics: inout [Diagnostic]) -> ForeachSpec.Source?
    {
        switch value {
        case .sequence(let elements, _):
            let scalars = elements.compactMap(\.scalar)
            guard scalars.count == elements.count else {
                diagnostics.append(.error("\(subject): 'foreach' items must be strings", at: value.location))
                return nil
            }
            return .items(readItems(scalars, at: value.location, subject: subject, diagnostics: &diagnostics))
        case .scalar(let scalar):
            guard let reference = variables.listReference(scalar) else {
                let hint =
                    PathGlob.isPattern(scalar.text)
                    ? "; for the files it matches write 'foreach: {glob: \"\(scalar.text)\"}'" : ""
                diagnostics.append(
                    .error(
                        "\(subject): 'foreach' must be a list or a list variable such as ${photos}, not "
                            + "\(value.kindDescription)\(hint)",
                        at: scalar.location))
                return nil
            }
            return .items(readItems(reference.items, at: value.location, subject: subject, diagnostics: &diagnostics))
        case .mapping(let pairs, let location):
            let keys = KeyedPairs(pairs)
            guard let glob = keys["glob"] else {
                diagnostics.append(
                    .error("\(subject): 'foreach' needs 'glob' (files) or 'matrix' (combinations)", at: location))
                return nil
            }
            let checker = ParameterChecker(variables: variables, item: .unavailable)
            var allowEmpty = false
            if let value = keys["allow_empty"],
                case .boolean(let allowed) = checker.check(
                    value, as: .boolean, name: "allow_empty", subject: subject, diagnostics: &diagnostics)
            {
                allowEmpty = allowed
            }
            let scalars: [YAMLScalar]
            switch glob {
            case .scalar(let scalar) where !scalar.isNull: scalars = [scalar]
            case .sequence(let elements, _) where !elements.isEmpty && elements.allSatisfy({ $0.scalar != nil }):
                scalars = elements.compactMap(\.scalar)
            default:
                diagnostics.append(
                    .error(
                        "\(subject): 'glob' must be a pattern or a list of patterns, not \(glob.kindDescription)",
                        at: glob.location))
                return nil
            }
            let patterns = scalars.compactMap { scalar in
                variables.substitute(scalar, item: .unavailable, diagnostics: &diagnostics).map {
                    Located($0, at: scalar.location)
                }
            }
            guard patterns.count == scalars.count else { return nil }
            return .glob(ForeachSpec.GlobSource(patterns: patterns, allowEmpty: allowEmpty))
        }
    }

    /// Items written as text: each non-empty, without `]`, once.
    private func readItems(
        _ scalars: [YAMLScalar], at location: SourceLocation, subject: String, diagnostics: inout [Diagnostic]
    ) -> [ForeachItem] {
        var items: [ForeachItem] = []
        var seen: Set<String> = []
        for scalar in scalars {
            guard let text = variables.substitute(scalar, item: .unavailable, diagnostics: &diagnostics) else {
                continue
            }
            guard !text.isEmpty, !text.contains("]") else {
                diagnostics.append(
                    .error(
                        "\(subject): 'foreach' item \(DisplayText.quoted(text)) must be non-empty and contain no ']'",
                        at: scalar.location))
                continue
            }
            guard seen.insert(text).inserted else {
                diagnostics.append(
                    .error(
                        "\(subject): 'foreach' item \(DisplayText.quoted(text)) appears more than once",
                        at: scalar.location))
                continue
            }
            items.append(ForeachItem(text: text))
        }
        if items.isEmpty, scalars.isEmpty {
            diagnostics.append(
                .warning("\(subject): 'foreach' has no items, so the operation never runs", at: location))
        }
        return items
    }

    private func readAxes(_ value: YAMLValue, subject: String, diagnostics: inout [Diagnostic]) -> [ForeachSpec.Axis]? {
        guard case .mapping(let pairs, _) = value, !pairs.isEmpty else {
            diagnostics.append(
                .error(
                    "\(subject): 'matrix' must be a mapping of axis names to items, not \(value.kindDescription)",
                    at: value.location))
            return nil
        }
        var axes: [ForeachSpec.Axis] = []
        for pair in pairs {
            guard Self.isValidID(pair.key.text) else {
                diagnostics.append(
                    .error(
                        "\(subject): invalid axis name \(DisplayText.quoted(pair.key.text)); use letters, digits, '-', "
                            + "'_' and '.'",
                        at: pair.key.location))
                continue
            }
            if case .mapping(let keys, _) = pair.value {
                Self.checkKeys(
                    keys, allowed: ["glob", "allow_empty"], of: "\(subject): axis '\(pair.key.text)': unknown key",
                    diagnostics: &diagnostics)
            }
            guard
                let source = readSource(
                    pair.value, subject: "\(subject): axis '\(pair.key.text)'", diagnostics: &diagnostics)
            else { continue }
            axes.append(ForeachSpec.Axis(name: Located(pair.key.text, at: pair.key.location), source: source))
        }
        return axes.count == pairs.count ? axes : nil
    }

    private func readExclusions(
        _ value: YAMLValue, axes: [ForeachSpec.Axis], subject: String, diagnostics: inout [Diagnostic]
    ) -> [ForeachSpec.Exclusion] {
        guard case .sequence(let entries, _) = value else {
            diagnostics.append(
                .error(
                    "\(subject): 'exclude' must be a list of mappings such as {size: 1024}, not "
                        + "\(value.kindDescription)",
                    at: value.location))
            return []
        }
        let names = axes.map(\.name.value)
        return entries.compactMap { entry in
            guard case .mapping(let pairs, _) = entry, !pairs.isEmpty else {
                diagnostics.append(
                    .error(
                        "\(subject): an 'exclude' entry must be a mapping of axes to items, not "
                            + "\(entry.kindDescription)",
                        at: entry.location))
                return nil
            }
            var exclusion: ForeachSpec.Exclusion = []
            for pair in pairs {
                guard names.contains(pair.key.text) else {
                    diagnostics.append(
                        .error(
                            "\(subject): 'exclude' names axis \(DisplayText.quoted(pair.key.text)), which the matrix "
                                + "does not have"
                                + Suggestion.clause(for: pair.key.text, in: names),
                            at: pair.key.location))
                    continue
                }
                guard let scalar = pair.value.scalar, !scalar.isNull else {
                    diagnostics.append(
                        .error(
                            "\(subject): 'exclude' items must be strings, not \(pair.value.kindDescription)",
                            at: pair.value.location))
                    continue
                }
                guard let text = variables.substitute(scalar, item: .unavailable, diagnostics: &diagnostics) else {
                    continue
                }
                exclusion.append((Located(pair.key.text, at: pair.key.location), text))
            }
            return exclusion.count == pairs.count ? exclusion : nil
        }
    }

    /// An error for each key of `pairs` not in `allowed`: `description`, the key, a suggestion.
    private static func checkKeys(
        _ pairs: [YAMLPair], allowed: [String], of description: String, diagnostics: inout [Diagnostic]
    ) {
        for pair in pairs where !allowed.contains(pair.key.text) {
            diagnostics.append(
                .error(
                    "\(description) \(DisplayText.quoted(pair.key.text))"
                        + Suggestion.clause(for: pair.key.text, in: allowed),
                    at: pair.key.location))
        }
    }
}
