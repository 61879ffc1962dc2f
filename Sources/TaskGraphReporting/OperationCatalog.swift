import TaskGraphCore

/// Describes the operation types and pipeline keys for `list-ops` and `help`.
public struct OperationCatalog {
    /// The types to describe.
    public let registry: OperationRegistry

    /// A catalog of `registry`.
    public init(registry: OperationRegistry = .core) {
        self.registry = registry
    }

    /// Every operation type with its inputs, outputs and parameters.
    public func render() -> String {
        var text = ""
        for type in registry.sorted {
            text += "\(type.name): \(type.summary)\n"
            var consumes = describe(type.input)
            if let inputSwitch = type.inputSwitch {
                consumes += "; with \(inputSwitch.parameter): true, \(describe(inputSwitch.requirement))"
            }
            text += "  consumes: \(consumes)\n"
            let produces = type.produces.sorted().map(\.rawValue).joined(separator: ", ")
            text += "  produces: \(produces.isEmpty ? "nothing" : produces)\n"
            for parameter in type.parameters {
                let requirement =
                    parameter.isRequired ? "required" : parameter.defaultValue.map { "default \($0)" } ?? "optional"
                text += "  \(parameter.name): \(parameter.type.displayName) (\(requirement)) — \(parameter.summary)\n"
            }
            text += "\n"
        }
        return text
    }

    /// The pipeline file's keys, with those of the registry's executors, for `help`.
    public func renderKeys() -> String {
        var text = "Top-level keys:\n"
        for key in PipelineKeys.topLevel(for: registry) { text += "  \(key.name) (\(key.type)): \(key.summary)\n" }
        text += "\nOperation keys (besides each type's parameters, which list-ops lists):\n"
        for key in PipelineKeys.operation(for: registry) { text += "  \(key.name) (\(key.type)): \(key.summary)\n" }
        return text
    }

    private func describe(_ input: InputRequirement) -> String {
        switch input {
        case .none: "nothing"
        case .one(let kinds): "one " + kinds.sorted().map(\.rawValue).joined(separator: " or ")
        case .all(let kinds):
            "every " + kinds.sorted().map(\.rawValue).joined(separator: " or ") + " among its dependencies"
        }
    }
}
