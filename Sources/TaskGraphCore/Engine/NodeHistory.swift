/// How one node's run went, for the report: its outcome, when it started and ended
/// (nanoseconds since the run started, -1 for never), how often it was tried, and what it
/// produced, or the error that failed it. Kept together because a node's start and end write
/// them within moments.
struct NodeHistory {
    var outcome: NodeOutcome?
    var start: Int64 = -1
    var end: Int64 = -1
    var attempts = 0
    var summary = ""
    var error: (any Error)?
}
