/// What the planner's messages add for mistakes new users make.
extension PipelinePlanner {
    /// The end of the message for a `needs` entry naming no operation: for an instance id
    /// (`c[a]`), how `needs` pairs instances; otherwise the closest declared id, if any.
    static func missingNeedAdvice(for need: String, in ids: [String]) -> String {
        guard let bracket = need.firstIndex(of: "["), need.hasSuffix("]") else {
            return Suggestion.clause(for: need, in: ids)
        }
        let operation = need[..<bracket]
        return "; 'needs' takes operation ids, not instances: write '\(operation)'. Two operations with "
            + "'foreach' pair item by item (x[a] needs \(operation)[a]); one without 'foreach' needs every instance"
    }
}
