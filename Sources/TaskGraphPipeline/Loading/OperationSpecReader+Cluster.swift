extension OperationSpecReader {
    /// The cluster keys of one operation (`ClusterSettings`), each from the operation or else
    /// from `defaults:`, checked.
    package func readClusterSettings(
        _ keys: KeyedPairs, checker: ParameterChecker, subject: @autoclosure () -> String,
        diagnostics: inout [Diagnostic]
    ) -> ClusterSettings {
        var settings = ClusterSettings()
        for (name, type) in clusterTypes {
            if let value = keys[name] {
                guard
                    let checked = checker.check(
                        value, as: type, name: name, subject: subject(), diagnostics: &diagnostics)
                else {
                    continue
                }
                if let problem = ClusterSettings.problem(with: checked, named: name) {
                    diagnostics.append(.error("\(subject()): \(problem)", at: value.location))
                    continue
                }
                settings.set(name, to: checked)
            } else if let setting = defaults[name] {
                // Checked once, where `defaults:` was read.
                settings.set(name, to: setting.value)
            }
        }
        return settings
    }
}
