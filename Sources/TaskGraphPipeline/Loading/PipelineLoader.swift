/// Reads a pipeline file's text into a `PipelineSpec`, collecting every problem as a located
/// diagnostic instead of stopping at the first.
package struct PipelineLoader {
    /// The operation types the file may use.
    package let declarations: OperationDeclarations
    /// Environment variables for `${env.NAME}`.
    package let environment: [String: String]
    /// `--var name=value` overrides; a list variable takes a comma-separated value.
    package let overrides: [String: String]
    /// The files being read, the pipeline file first and this one last, each with where it
    /// was included (empty while reading the pipeline file itself).
    var chain: [IncludeLink] = []
    /// The values the include of this file gives its variables (`include:` … `vars:`).
    var includedValues: [(name: YAMLScalar, value: Variables.Value)] = []
    /// How many more files this one and those it includes may include in all.
    var includeBudget = PipelineLoader.maximumIncludedFiles

    /// A loader of files that may use `declarations`, substituting `environment` and `overrides`.
    package init(declarations: OperationDeclarations, environment: [String: String], overrides: [String: String]) {
        self.declarations = declarations
        self.environment = environment
        self.overrides = overrides
    }

    /// The checked spec (nil if the file cannot be understood at all) and every diagnostic.
    package func load(text: String, file: String) -> (spec: PipelineSpec?, diagnostics: [Diagnostic]) {
        var (root, diagnostics) = YAMLDocumentReader(file: file).read(text)
        guard let root else { return (nil, diagnostics) }
        guard case .mapping(let pairs, let location) = root else {
            diagnostics.append(
                .error(
                    "a pipeline file must be a mapping with 'version' and 'operations', not \(root.kindDescription)",
                    at: root.location))
            return (nil, diagnostics)
        }
        let keys = KeyedPairs(pairs)
        diagnostics += keys.unknownKeyDiagnostics(
            allowed: PipelineKeys.topLevel(for: declarations).map(\.name), subject: "top-level")
        if isIncluded { diagnostics += rootOnlyKeyDiagnostics(keys) }
        checkVersion(keys["version"], in: location, diagnostics: &diagnostics)
        let variables = readVariables(keys["vars"], diagnostics: &diagnostics)
        let defaults = readDefaults(keys["defaults"], variables: variables, diagnostics: &diagnostics)
        var spec = PipelineSpec(
            file: file, name: readName(keys["name"], file: file),
            output: readOutput(keys["output"], variables: variables, diagnostics: &diagnostics),
            pools: readPools(keys["pools"], diagnostics: &diagnostics),
            variables: variables, operations: [])
        (spec.executor, spec.store) = readClusterKeys(keys, variables: variables, diagnostics: &diagnostics)
        let includes = keys["include"].map {
            readIncludes($0, of: file, variables: variables, diagnostics: &diagnostics)
        }
        if let operations = keys["operations"] {
            let reader = OperationSpecReader(declarations: declarations, variables: variables, defaults: defaults)
            spec.operations = reader.readAll(operations, diagnostics: &diagnostics)
        } else if includes == nil {
            diagnostics.append(.error("missing required key 'operations'", at: location))
        }
        for (name, included) in includes ?? [] { spec.include(included, as: name) }
        if !isIncluded { diagnostics += spec.duplicateIDDiagnostics() }
        return (spec, diagnostics)
    }

    private func checkVersion(_ value: YAMLValue?, in location: SourceLocation, diagnostics: inout [Diagnostic]) {
        guard let value else {
            diagnostics.append(.error("missing required key 'version' (write 'version: 1')", at: location))
            return
        }
        guard value.scalar?.text == "1" else {
            diagnostics.append(
                .error(
                    "unsupported version \(value.kindDescription); this taskgraph reads version 1",
                    at: value.location))
            return
        }
    }

    private func readName(_ value: YAMLValue?, file: String) -> String {
        if let name = value?.scalar?.text, !name.isEmpty { return name }
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return base.split(separator: ".").first.map(String.init) ?? base
    }

    private func readVariables(_ value: YAMLValue?, diagnostics: inout [Diagnostic]) -> Variables {
        var values: [String: Variables.Value] = [:]
        if let value {
            guard case .mapping(let pairs, _) = value else {
                diagnostics.append(
                    .error(
                        "'vars' must be a mapping of names to values, not \(value.kindDescription)", at: value.location)
                )
                return Variables(values: [:], environment: environment)
            }
            for pair in pairs {
                switch pair.value {
                case .scalar(let scalar):
                    values[pair.key.text] = .text(scalar)
                case .sequence(let elements, let location):
                    let scalars = elements.compactMap(\.scalar)
                    guard scalars.count == elements.count else {
                        diagnostics.append(
                            .error("variable '\(pair.key.text)' must be a string or a list of strings", at: location))
                        continue
                    }
                    values[pair.key.text] = .list(scalars, location)
                case .mapping(_, let location):
                    diagnostics.append(
                        .error(
                            "variable '\(pair.key.text)' must be a string or a list of strings, not a mapping",
                            at: location))
                }
            }
        }
        let declared = Array(values.keys)
        for (name, text) in overrides {
            let location = SourceLocation(file: "--var \(name)", line: 1, column: 1)
            guard values[name] != nil else {
                diagnostics.append(
                    .error(
                        "the pipeline declares no variable '\(name)' under 'vars'"
                            + Suggestion.clause(for: name, in: declared),
                        at: location))
                continue
            }
            values[name] = Self.override(text, replacing: values[name], at: location, diagnostics: &diagnostics)
        }
        applyIncludedValues(to: &values, diagnostics: &diagnostics)
        return Variables(values: values, environment: environment)
    }

    /// A `--var` value: split on commas when it replaces a list variable (an empty value is an
    /// empty list; an empty item between commas is an error rather than dropped).
    private static func override(
        _ text: String, replacing old: Variables.Value?, at location: SourceLocation, diagnostics: inout [Diagnostic]
    ) -> Variables.Value {
        if case .list = old {
            let items = text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false)
            if items.contains(where: \.isEmpty) {
                diagnostics.append(
                    .error(
                        "\(DisplayText.quoted(text)) has an empty item; a list variable takes comma-separated items, "
                            + "none empty",
                        at: location))
            }
            let scalars = items.filter { !$0.isEmpty }.map {
                YAMLScalar(text: String($0), location: location, style: .block)
            }
            return .list(scalars, location)
        }
        return .text(YAMLScalar(text: text, location: location, style: .block))
    }

    private func readDefaults(
        _ value: YAMLValue?, variables: Variables, diagnostics: inout [Diagnostic]
    ) -> [String: (value: ParameterValue, location: SourceLocation)] {
        guard let value else { return [:] }
        guard case .mapping(let pairs, _) = value else {
            diagnostics.append(.error("'defaults' must be a mapping, not \(value.kindDescription)", at: value.location))
            return [:]
        }
        let keys = KeyedPairs(pairs)
        let allowed = PipelineKeys.defaults(for: declarations)
        diagnostics += keys.unknownKeyDiagnostics(allowed: allowed, subject: "'defaults'")
        let checker = ParameterChecker(variables: variables, item: .unavailable)
        var defaults: [String: (value: ParameterValue, location: SourceLocation)] = [:]
        for (name, type) in OperationSpecReader.settingTypes + ClusterSettings.types(in: declarations) {
            guard allowed.contains(name), let setting = keys[name] else { continue }
            if let checked = checker.check(
                setting, as: type, name: name, subject: "'defaults'", diagnostics: &diagnostics)
            {
                if let problem = ClusterSettings.problem(with: checked, named: name) {
                    diagnostics.append(.error("'defaults': \(problem)", at: setting.location))
                    continue
                }
                defaults[name] = (checked, setting.location)
            }
        }
        return defaults
    }

    /// How many pools a pipeline may declare.
    package static let maximumPools = Int(UInt16.max)

    private func readPools(_ value: YAMLValue?, diagnostics: inout [Diagnostic]) -> [String: Located<Int>] {
        guard let value else { return [:] }
        guard case .mapping(let pairs, _) = value else {
            diagnostics.append(
                .error(
                    "'pools' must be a mapping of pool names to depths, not \(value.kindDescription)",
                    at: value.location))
            return [:]
        }
        var pools: [String: Located<Int>] = [:]
        for pair in pairs {
            guard let depth = pair.value.scalar.flatMap({ Int($0.text) }), depth >= 1, depth <= 10_000 else {
                diagnostics.append(
                    .error(
                        "pool '\(pair.key.text)' must have a depth from 1 to 10000, not \(pair.value.kindDescription)",
                        at: pair.value.location))
                continue
            }
            pools[pair.key.text] = Located(depth, at: pair.value.location)
        }
        // The engine numbers pools in 16 bits, the default pool among them (`PoolLayout`).
        if pools.count > Self.maximumPools {
            diagnostics.append(
                .error(
                    "'pools' declares \(pools.count) pools; at most \(Self.maximumPools) can be", at: value.location))
            return [:]
        }
        return pools
    }

    private func readOutput(
        _ value: YAMLValue?, variables: Variables, diagnostics: inout [Diagnostic]
    ) -> Located<String>? {
        guard let value else { return nil }
        guard let scalar = value.scalar, !scalar.isNull else {
            diagnostics.append(
                .error("'output' must be a directory path, not \(value.kindDescription)", at: value.location))
            return nil
        }
        return variables.substitute(scalar, item: .unavailable, diagnostics: &diagnostics)
            .map { Located($0, at: scalar.location) }
    }
}
