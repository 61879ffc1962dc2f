/// Why a pipeline could not be loaded.
public enum PipelineError: Error, Sendable {
    /// The file has errors; every diagnostic (errors and warnings), sorted.
    case invalid([Diagnostic])

    /// The diagnostics.
    public var diagnostics: [Diagnostic] {
        switch self {
        case .invalid(let diagnostics): diagnostics
        }
    }
}

extension PipelineError: CustomStringConvertible {
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
