import TaskGraphCore

/// Hands every event to several sinks, in order (display, JSON lines, trace…).
public struct EventFanOut: EventSink {
    private let sinks: [any EventSink]

    /// A sink that forwards to `sinks`.
    public init(_ sinks: [any EventSink]) {
        self.sinks = sinks
    }

    public func receive(_ event: EngineEvent) {
        for sink in sinks { sink.receive(event) }
    }

    public func receiveSettled(_ nodes: [Int], elapsed: Duration) {
        for sink in sinks { sink.receiveSettled(nodes, elapsed: elapsed) }
    }
}
