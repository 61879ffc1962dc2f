import TaskGraphCore

/// The warning the log and the live display show, once, for an operation whose stored result
/// was damaged and is computed again: `corrupt cache entry sha256:…, recomputed` (README,
/// "Incremental runs and the cache"). The JSON events carry the decision itself.
enum CorruptEntryWarning {
    /// The warning for `decision`, or nil when it is not a damaged entry's.
    static func message(for decision: CacheDecision) -> String? {
        guard decision.reason == .corrupt else { return nil }
        let name = CacheDecision.Reason.corrupt.rawValue
        let detail = decision.detail
        return (detail.hasPrefix(name) ? detail : detail.isEmpty ? name : "\(name): \(detail)") + ", recomputed"
    }
}
