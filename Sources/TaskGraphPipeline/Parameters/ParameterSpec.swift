/// The declaration of one operation parameter: its name, type, default and meaning.
public struct ParameterSpec: Hashable, Sendable {
    /// The key users write in the pipeline file.
    public var name: String
    /// The type `validate` checks.
    public var type: ParameterType
    /// The value used when the key is absent; nil means the parameter is required
    /// unless `isOptional` is set.
    public var defaultValue: ParameterValue?
    /// Whether the parameter may be left out without a default.
    public var isOptional: Bool
    /// Whether the value names a file that must exist before the operation runs, relative to
    /// the pipeline file (a key file): `validate` reports it missing unless an operation writes it.
    public var namesExistingFile: Bool
    /// One line for help output and docs/pipeline.md.
    public var summary: String

    /// Declares a parameter.
    public init(
        _ name: String, _ type: ParameterType, default defaultValue: ParameterValue? = nil,
        optional: Bool = false, existingFile: Bool = false, _ summary: String
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.isOptional = optional
        self.namesExistingFile = existingFile
        self.summary = summary
    }

    /// Whether a pipeline must set this parameter.
    public var isRequired: Bool { defaultValue == nil && !isOptional }
}
