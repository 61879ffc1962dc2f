extension RunState {
    /// Tells the dependents of `node`, which ended `ending`, and queues those that may now start.
    /// A dependent whose `when:` rule can no longer be met ends at once, skipped or bypassed
    /// (listed in `finish`), and tells its own dependents in turn.
    mutating func releaseDependents(
        of node: Int, ending: NodeProgress.Ending, tracksReadiness: Bool, into finish: inout Finish
    ) {
        // `cause`: the failed node a skip names, when `node` was itself skipped because of it.
        var pending: [(node: Int, ending: NodeProgress.Ending, cause: String?)] = []
        var current: (node: Int, ending: NodeProgress.Ending, cause: String?)? = (node, ending, nil)
        while let (ended, ending, endedCause) = current {
            let depth = progress[ended].depth + 1
            for position in plan.dependents.successorPositions(of: ended) {
                let dependent = plan.dependents.successor(at: position)
                switch progress[dependent].dependencyEnded(ending, depth: depth) {
                case .waiting:
                    continue
                case .ready:
                    enqueue(dependent)
                    if tracksReadiness { finish.readied.append(dependent) }
                case .skip:
                    let cause = endedCause ?? plan.id(of: ended)
                    endWithoutRunning(dependent, .skipped(because: cause), into: &finish)
                    pending.append((dependent, .failed, cause))
                case .bypass:
                    endWithoutRunning(dependent, .bypassed(bypassReason(dependent, after: ended)), into: &finish)
                    pending.append((dependent, .bypassed, nil))
                }
            }
            current = pending.popLast()
        }
    }

    /// Why `node`, whose rule cannot be met now that `dependency` has ended, does not run.
    private func bypassReason(_ node: Int, after dependency: Int) -> String {
        switch progress[node].rule {
        case .failure: "when: failure, and nothing it needs failed"
        case .success, .always: "'\(plan.id(of: dependency))' did not run"
        }
    }

    /// Ends `node`, which never started, with `outcome`, and lets go of the results it would
    /// have taken.
    mutating func endWithoutRunning(_ node: Int, _ outcome: NodeOutcome, into finish: inout Finish) {
        progress[node].hasEnded = true
        histories.record(NodeHistory(outcome: outcome), for: node)
        finishedCount += 1
        finish.ended.append((node, outcome))
        for dependency in plan.dependencies.successors(of: node) { _ = takeResult(of: Int(dependency)) }
    }
}
