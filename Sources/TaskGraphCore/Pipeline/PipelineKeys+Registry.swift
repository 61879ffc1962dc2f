extension PipelineKeys {
    /// Keys at the top level of a pipeline file, `executor:` naming those of `registry`.
    public static func topLevel(for registry: OperationRegistry) -> [Key] { topLevel(for: registry.declarations) }

    /// Keys every operation accepts besides its type's parameters, `executor:` naming those of
    /// `registry`, followed by the keys of the executors of `registry`.
    public static func operation(for registry: OperationRegistry) -> [Key] { operation(for: registry.declarations) }
}
