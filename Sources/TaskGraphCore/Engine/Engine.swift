/// Runs an `ExecutionGraph`: every node as soon as the nodes it needs have finished, as many at
/// once as its pool allows.
///
/// Each pool (the default one, bounded by `jobs`, and every named pool) gets a fixed set of
/// worker tasks in one task group; a worker takes the next ready node of its pool, runs it,
/// records the outcome and releases its dependents. No task is created per node, so scheduling
/// costs well under a microsecond per node. Cancelling the task that calls `run` cancels the run:
/// nothing new starts, running actions see cancellation at once, and the report says what
/// finished, failed, was cancelled or never ran. Every task a run starts (its workers, its
/// timeout watchdog) belongs to the run's task group: none is left when `run` returns.
public struct Engine: Sendable {
    /// How this engine runs graphs.
    public var options: EngineOptions

    /// Creates an engine.
    public init(options: EngineOptions = EngineOptions()) {
        self.options = options
    }

    /// Runs every node of `graph` and reports how each ended. Never throws: failures are
    /// outcomes in the report.
    /// - Parameters:
    ///   - graph: the nodes to run.
    ///   - events: receives the run's events (for displays, logs, traces), if given.
    ///   - resources: the threads, memory budget, temporary files and children of the run; the
    ///     caller shuts them down. By default the engine makes a set for this run
    ///     (`blockingThreads(for:)` threads) and shuts it down before returning.
    ///   - cache: the store to reuse results from and record them in, and how (none: every
    ///     node runs and nothing is recorded). A node whose result is reused ends `.cached`.
    ///   - control: pauses and resumes the run from outside, if given.
    ///   - results: receives each node's result as the node ends successfully, if given.
    ///   - handle: adds nodes to the run and cancels single nodes while it runs, if given
    ///     (`RunHandle`).
    public func run(
        _ graph: ExecutionGraph, events: (any EventSink)? = nil, resources: RunResources? = nil,
        cache: RunCache? = nil, control: RunControl? = nil, results: (any ResultSink)? = nil,
        handle: RunHandle? = nil
    ) async -> RunReport {
        guard let resources else {
            let owned = RunResources(blockingThreads: Self.blockingThreads(for: options))
            let report = await run(
                graph, events: events, resources: owned, cache: cache, control: control, results: results,
                handle: handle)
            await owned.shutDown()
            return report
        }
        // A fan-out's expansion adds its instances through the run's handle. Single nodes are
        // cancelled only through a caller's: each node then runs in a task of its own.
        let cancelsSingleNodes = handle != nil
        let handle = handle ?? (graph.addsNodesWhileRunning ? RunHandle() : nil)
        // Every task of the run (workers, actions, what they start) sees the run's resources.
        return await resources.withCurrent {
            await RunHandle.$current.withValue(handle) {
                await run(
                    graph, events: events, on: resources, cache: cache, control: control, results: results,
                    handle: handle, cancelsSingleNodes: cancelsSingleNodes)
            }
        }
    }

    /// The blocking-IO threads a run with `options` gets: two per core for codecs, kernels and
    /// file IO, plus one for each worker of a named pool, where operations such as downloads
    /// hold a thread for as long as they wait (at most 64 of those).
    public static func blockingThreads(for options: EngineOptions) -> Int {
        RunResources.defaultBlockingThreads + min(64, options.pools.values.reduce(0) { $0 + max(0, $1) })
    }

    private func run(
        _ graph: ExecutionGraph, events: (any EventSink)?, on resources: RunResources, cache: RunCache?,
        control: RunControl?, results: (any ResultSink)?, handle: RunHandle?, cancelsSingleNodes: Bool
    ) async -> RunReport {
        let clock = RunClock()
        let plan = RunPlan(graph)
        cache?.begin(plan.cacheGraph, remotely: options.remote != nil)
        // Nodes the cache shows unchanged, with all they need, end before the workers start.
        let settled = cache?.settledAtStart() ?? []
        for (node, stored) in settled { results?.receive(stored, of: node, id: plan.id(of: node)) }
        let pools = PoolLayout(plan: plan, options: options, growable: handle != nil)
        var growth: RunState.Growth?
        if handle != nil {
            var grown: (@Sendable (RunPlan, Int) -> Void)?
            if let cache { grown = { plan, first in cache.grow(plan.cacheGraph, from: first) } }
            let adders = Set(
                (0..<plan.count).filter { node in plan.read(node) { $0.pointee.type == FanOutExpansion.type } })
            growth = RunState.Growth(
                poolIndexByName: pools.indexByName, tracksRunning: cancelsSingleNodes, adders: adders, grown: grown)
        }
        let coordinator = RunCoordinator(
            plan: plan, poolOfNode: pools.poolOfNode, poolCount: pools.lanes.count,
            laneCount: pools.lanes.reduce(0) { $0 + $1.count }, failFast: options.failFast,
            tracksReadiness: events != nil, clock: clock,
            settled: settled,
            growth: growth)
        let watchdog = TimeoutWatchdog()
        let runner = NodeRunner(
            options: options, events: events, clock: clock, resources: resources, watchdog: watchdog,
            cache: cache, fusion: cache == nil ? nil : options.remote.map { FusedRuns(plan: plan, remote: $0) })
        if let events {
            events.receive(EngineEvent(elapsed: clock.elapsed, kind: .runStarted(nodeCount: plan.count)))
            Self.announceReady(in: plan, settled: settled, to: events, clock: clock)
        }
        if let cache, resources.streamedOutput != nil {
            // Before they are reported ended, and before the run can end (it ends as soon as
            // every node has, and settled ones have from the start).
            await runner.replayOutput(ofSettled: settled, of: plan, store: cache.store)
        }

        handle?.attach(
            RunHandle.Attachment(coordinator: coordinator) { addition, added in
                guard let events else { return }
                let elapsed = clock.elapsed
                if !added.isEmpty {
                    events.receive(
                        EngineEvent(elapsed: elapsed, kind: .nodesAdded(first: addition.first, nodes: added)))
                }
                for (node, outcome) in addition.ended {
                    events.receive(EngineEvent(elapsed: elapsed, kind: .nodeFinished(node: node, outcome: outcome)))
                }
                for node in addition.readied {
                    events.receive(EngineEvent(elapsed: elapsed, kind: .nodeQueued(node: node)))
                }
            })
        control?.attach { paused in
            Self.apply(paused: paused, coordinator: coordinator, watchdog: watchdog, resources: resources)
            events?.receive(EngineEvent(elapsed: clock.elapsed, kind: paused ? .runPaused : .runResumed))
        }
        let stopReason = await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                // With a cache, workers run on the blocking threads: a cache hit is mostly short
                // blocking calls (stat, reading a record), made there in place instead of a trip
                // there and back for each. Actions but programs' still run on the cooperative
                // pool (`NodeRunner.runCached`).
                let preferred: (any TaskExecutor)? = cache == nil ? nil : resources.blockingIO
                for (pool, lanes) in pools.lanes.enumerated() {
                    for lane in lanes {
                        group.addTask(executorPreference: preferred) {
                            await Self.work(
                                pool: pool, lane: lane, coordinator: coordinator, runner: runner,
                                events: events, results: results, clock: clock, cancellable: cancelsSingleNodes)
                        }
                    }
                }
                if let events, !settled.isEmpty {
                    // Beside the workers: thousands of events that nothing waits for. These
                    // nodes never start, so each one's events keep their order (docs/events.md).
                    group.addTask { events.receiveSettled(settled.map(\.node), elapsed: clock.elapsed) }
                }
                group.addTask { await watchdog.run() }
                let reason = await coordinator.waitForStop()
                // Ends the watchdog, and unless every node has ended, the running ones.
                group.cancelAll()
                await group.waitForAll()
                // Attempts that outlived their nodes' time limits belong to the run too.
                await watchdog.waitForAbandonedAttempts()
                return reason
            }
        } onCancel: {
            coordinator.stop(.cancelled)
        }

        handle?.detach()
        if let control {
            control.detach()
            // A run that ended paused leaves no child; children of a later run start running.
            resources.childProcesses.setStopped(false)
        }
        // Cancelled also when every node ended before the cancellation reached the coordinator:
        // a cluster run's jobs, cancelled with the run, can all report so first.
        let report = coordinator.report(wasCancelled: stopReason == .cancelled || Task.isCancelled)
        if let events {
            for (index, record) in report.nodes.enumerated() where record.outcome == .notStarted {
                events.receive(
                    EngineEvent(elapsed: clock.elapsed, kind: .nodeFinished(node: index, outcome: .notStarted)))
            }
            events.receive(EngineEvent(elapsed: clock.elapsed, kind: .runFinished(report)))
        }
        return report
    }

    /// Queues, before any worker starts, every node that is ready at once: it needs nothing, or
    /// only nodes settled before the run (`RunCache.settledAtStart`), and was not settled itself.
    private static func announceReady(
        in plan: RunPlan, settled: [(node: Int, stored: StoredResult)], to events: any EventSink, clock: RunClock
    ) {
        var isSettled = [Bool](repeating: false, count: settled.isEmpty ? 0 : plan.count)
        for (node, _) in settled { isSettled[node] = true }
        for node in 0..<plan.count where isSettled.isEmpty || !isSettled[node] {
            guard plan.dependencies.successors(of: node).allSatisfy({ !isSettled.isEmpty && isSettled[Int($0)] }) else {
                continue
            }
            events.receive(EngineEvent(elapsed: clock.elapsed, kind: .nodeQueued(node: node)))
        }
    }

    /// Pauses a run (nothing starts, children stop, time limits stop counting) or resumes it.
    private static func apply(
        paused: Bool, coordinator: RunCoordinator, watchdog: TimeoutWatchdog, resources: RunResources
    ) {
        if paused {
            coordinator.setPaused(true)
            resources.childProcesses.setStopped(true)
            watchdog.pause()
        } else {
            watchdog.resume()
            resources.childProcesses.setStopped(false)
            coordinator.setPaused(false)
        }
    }

    private static func work(
        pool: Int, lane: Int, coordinator: RunCoordinator, runner: NodeRunner,
        events: (any EventSink)?, results resultSink: (any ResultSink)?, clock: RunClock, cancellable: Bool
    ) async {
        // The worker's own reference: reading the coordinator's for every node would retain and
        // release arrays that every worker shares (contended atomics). Taken again only when
        // nodes were added since (`RunHandle`).
        var (plan, generation) = (coordinator.plan, 0)
        var next = await coordinator.nextAssignment(pool: pool)
        while let assignment = next {
            let index = assignment.node
            if assignment.planGeneration != generation { (plan, generation) = coordinator.currentPlan() }
            let completion: NodeRunner.Completion
            if cancellable {
                let current = plan
                completion = await coordinator.runCancellable(index) {
                    await runner.run(index, of: current, results: assignment.results, lane: lane)
                }
            } else {
                completion = await runner.run(index, of: plan, results: assignment.results, lane: lane)
            }
            let end = events == nil ? .zero : clock.elapsed
            events?.receive(
                EngineEvent(
                    elapsed: end, kind: .nodeFinished(node: index, outcome: completion.outcome), usage: completion.usage
                ))
            if let resultSink, completion.outcome.kind.isSuccess, let result = completion.result {
                resultSink.receive(result, of: index, id: plan.id(of: index))
            }
            let finish = coordinator.finish(
                index, startedAt: assignment.start, outcome: completion.outcome, error: completion.error,
                result: completion.result, attempts: completion.attempts, takingNextFrom: pool)
            if let events {
                for (node, outcome) in finish.ended {
                    events.receive(EngineEvent(elapsed: end, kind: .nodeFinished(node: node, outcome: outcome)))
                }
                for node in finish.readied {
                    events.receive(EngineEvent(elapsed: end, kind: .nodeQueued(node: node)))
                }
            }
            if let following = finish.next {
                next = following
            } else {
                next = await coordinator.nextAssignment(pool: pool)
            }
        }
    }
}
