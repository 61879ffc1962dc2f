import TaskGraphCore

/// Loads `yaml` as `test.yaml` and returns the rendered diagnostics (empty when valid).
public func diagnostics(
    _ yaml: String, variables: [String: String] = [:], environment: [String: String] = [:],
    registry: OperationRegistry = .core
) -> [String] {
    do {
        let pipeline = try Pipeline.load(
            text: yaml, file: "test.yaml",
            options: PipelineOptions(
                variables: variables, environment: environment, outputDirectory: "/tmp/out", registry: registry))
        return pipeline.warnings.map(\.description)
    } catch {
        return error.diagnostics.map(\.description)
    }
}

/// Loads `yaml`, which must be valid, as `file` (default `test.yaml`, in the current directory).
public func plannedGraph(
    _ yaml: String, file: String = "test.yaml", variables: [String: String] = [:],
    environment: [String: String] = ["HOME": "/home/me"], registry: OperationRegistry = .core
) throws -> ExecutionGraph {
    try Pipeline.load(
        text: yaml, file: file,
        options: PipelineOptions(
            variables: variables, environment: environment, outputDirectory: "/tmp/out", registry: registry)
    ).graph
}
