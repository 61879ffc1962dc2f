/// The wait before the next queue query: the minimum after a change, growing by half on every
/// query that sees none, up to the maximum.
struct PollInterval {
    let minimum: Duration
    let maximum: Duration
    /// The current wait.
    private(set) var current: Duration

    init(minimum: Duration, maximum: Duration) {
        self.minimum = minimum
        self.maximum = max(minimum, maximum)
        current = minimum
    }

    /// Back to the minimum: something changed, or new work arrived.
    mutating func reset() {
        current = minimum
    }

    /// Waits longer next time: nothing changed.
    mutating func backOff() {
        current = min(current * 1.5, maximum)
    }
}
