extension OperationType {
    /// `parameters` checked as `validate` checks a pipeline's, with the type's defaults filled
    /// in: what a setup made in code must hold.
    /// - Throws: `OperationError.unknownParameter` (with a suggestion),
    ///   `.invalidParameterValue` or `.missingParameter`, whose messages read as `validate`'s.
    public func checked(_ parameters: Parameters) throws(OperationError) -> Parameters {
        var checked = Parameters()
        for (name, value) in parameters.values.sorted(by: { $0.key < $1.key }) {
            guard let parameter = parameter(named: name) else {
                throw .unknownParameter(
                    type: self.name, name: name,
                    suggestion: Suggestion.closest(to: name, in: self.parameters.map(\.name)))
            }
            guard let accepted = parameter.type.accepting(value) else {
                throw .invalidParameterValue(
                    type: self.name, name: name, expected: ParameterChecker.expectation(for: parameter.type),
                    value: DisplayText.quoted(value.redacted.writtenText))
            }
            checked.values[name] = accepted
        }
        for parameter in self.parameters where checked.values[parameter.name] == nil {
            if let value = parameter.defaultValue {
                checked.values[parameter.name] = value
            } else if parameter.isRequired {
                throw .missingParameter(type: name, name: parameter.name)
            }
        }
        return checked
    }

    /// The action of one instance of this type with `parameters`, carrying its setup, so that
    /// `ExecutionGraph.add` keys it exactly as the same operation written in a pipeline file.
    /// - Parameters:
    ///   - pipelineDirectory: where relative input paths (`load`'s `path`, `exec`'s `inputs`)
    ///     start, as the directory of a pipeline file does.
    ///   - outputDirectory: where relative output paths (`save`'s `path`) start.
    ///   - environment: the environment the operation would read; only the variables the type
    ///     declares for these parameters are kept (an `exec`'s passed-through `PATH`, a key in
    ///     `key_env`). The library reads no environment of its own.
    /// - Throws: what `checked(_:)` throws, or what the type's `makeAction` throws.
    public func configure(
        _ parameters: Parameters, pipelineDirectory: String = "/", outputDirectory: String = "/",
        environment: [String: String] = [:]
    ) throws -> ConfiguredAction {
        let parameters = try checked(parameters)
        let setup = OperationSetup(
            type: name, id: name, parameters: parameters,
            environment: declaredEnvironment(for: parameters, in: environment),
            pipelineDirectory: pipelineDirectory, outputDirectory: outputDirectory)
        return ConfiguredAction(setup: setup, action: try makeAction(setup))
    }
}
