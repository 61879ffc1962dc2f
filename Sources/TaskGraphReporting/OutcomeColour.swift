import TaskGraphCore

extension NodeOutcome.Kind {
    /// The fill colour drawings use for this kind (graph nodes, timeline bars, table badges).
    var fillColour: String {
        switch self {
        case .succeeded: "#b7e4c7"
        case .cached: "#d8f3dc"
        case .failed, .timedOut: "#f4a6a6"
        case .cancelled: "#ffd8a8"
        case .skipped, .bypassed, .notStarted: "#dee2e6"
        }
    }
}
