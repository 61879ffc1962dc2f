/// The variables of a pipeline's environment that operation instances declare they read, shared:
/// an instance naming the same variables as the last one that named any (every `exec` names its
/// pass-through set) gets the same dictionary instead of a new one, so a large pipeline pays for
/// one copy, not one per instance.
package struct DeclaredEnvironments {
    /// The pipeline's environment.
    package let environment: [String: String]
    private var last: (names: [String], variables: [String: String])?

    package init(_ environment: [String: String]) {
        self.environment = environment
    }

    /// The variables of the environment called `names` that are set.
    package mutating func variables(named names: [String]) -> [String: String] {
        guard !names.isEmpty else { return [:] }
        if let last, last.names == names { return last.variables }
        let variables = OperationDeclaration.variables(named: names, in: environment)
        last = (names, variables)
        return variables
    }
}
