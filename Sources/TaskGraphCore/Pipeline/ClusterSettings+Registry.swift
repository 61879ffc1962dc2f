extension ClusterSettings {
    /// The keys of `ClusterSettings` with their types, as `types(in:)` lists them for the
    /// declarations of `registry`.
    public static func types(in registry: OperationRegistry) -> [(name: String, type: ParameterType)] {
        types(in: registry.declarations)
    }
}
