extension PipelineLoader {
    /// The top-level `executor:` (`local` or a registered executor's name) and `store:` (a directory path) values,
    /// checked, with `${…}` substituted.
    package func readClusterKeys(
        _ keys: KeyedPairs, variables: Variables, diagnostics: inout [Diagnostic]
    ) -> (executor: Located<String>?, store: Located<String>?) {
        let checker = ParameterChecker(variables: variables, item: .unavailable)
        func read(_ name: String, as type: ParameterType) -> Located<String>? {
            guard let value = keys[name],
                case .string(let text)? = checker.check(
                    value, as: type, name: name, subject: "top-level", diagnostics: &diagnostics)
            else { return nil }
            return Located(text, at: value.location)
        }
        return (read("executor", as: .choice(declarations.executorNames)), read("store", as: .string))
    }
}
