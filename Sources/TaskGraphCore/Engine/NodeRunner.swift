/// Runs one node: its attempts, time limit, retries with backoff, and the events about them.
struct NodeRunner: Sendable {
    let options: EngineOptions
    let events: (any EventSink)?
    let clock: RunClock
    /// The run's threads, memory budget, temporary files and children, handed to every action.
    let resources: RunResources
    /// Enforces `timeout` for the run's attempts.
    let watchdog: TimeoutWatchdog
    /// The store the run reuses and records results in, if any.
    let cache: RunCache?
    /// The run's fused chains, when it has a remote executor.
    let fusion: FusedRuns?

    /// What a node's run came to.
    struct Completion {
        var outcome: NodeOutcome
        var result: (any OperationResult)?
        var attempts: Int
        /// What its attempts used, when it ran and something was measured.
        var usage: ResourceUsage?
        /// What its last attempt threw, when it failed or timed out.
        var error: (any Error)?

        /// A node whose last attempt threw `error`: it timed out (`EngineError.timedOut`) or
        /// failed with the error's description.
        init(failure error: any Error, attempts: Int) {
            if case EngineError.timedOut(let limit) = error {
                outcome = .timedOut(limit)
            } else {
                outcome = .failed(String(describing: error))
            }
            self.attempts = attempts
            self.error = error
        }

        /// A node that ended with `outcome` (not a failure: see `init(failure:attempts:)`).
        init(outcome: NodeOutcome, result: (any OperationResult)? = nil, attempts: Int) {
            self.outcome = outcome
            self.result = result
            self.attempts = attempts
        }

        /// A node whose work threw `error`: cancelled if its task was, otherwise as
        /// `init(failure:attempts:)` makes it.
        static func ended(by error: any Error, attempts: Int) -> Completion {
            Task.isCancelled
                ? Completion(outcome: .cancelled, attempts: attempts) : Completion(failure: error, attempts: attempts)
        }
    }

    /// Runs `node`, given its dependencies' `results`, on worker `lane`: reuses its stored result
    /// when the run has a cache that holds it, otherwise runs its attempts, measuring what they use.
    func run(_ index: Int, of plan: RunPlan, results: [RunState.Input], lane: Int) async -> Completion {
        let meter = UsageMeter()
        var completion = await UsageMeter.$current.withValue(meter) {
            guard let cache else {
                return await runAttempts(index, of: plan, inputs: results.map { plan.input(from: $0) }, lane: lane)
            }
            return await runCached(index, of: plan, results: results, lane: lane, cache: cache)
        }
        if completion.outcome == .cached, let cache, let result = completion.result {
            await replayOutput(of: index, id: plan.id(of: index), result: result, store: cache.store)
        }
        if completion.attempts > 0 { completion.usage = meter.usage }
        return completion
    }

    /// Runs `node` with `inputs` on worker `lane` until it succeeds, runs out of attempts, or the
    /// task is cancelled.
    /// - Parameter attempt: runs one attempt; by default the node's action in this process.
    func runAttempts(
        _ index: Int, of plan: RunPlan, inputs: [TaskContext.Input], lane: Int,
        attempt perform: (@Sendable (TaskContext) async throws -> any OperationResult)? = nil
    ) async -> Completion {
        let (id, action, settings, preferredInputID) = plan.read(index) {
            ($0.pointee.id, $0.pointee.action, $0.pointee.settings, $0.pointee.preferredInputID)
        }
        let body = perform ?? { try await action.run(in: $0) }
        let maximumAttempts = settings.retries + 1
        var attempt = 1
        while true {
            if Task.isCancelled { return Completion(outcome: .cancelled, attempts: attempt - 1) }
            emit(.nodeStarted(node: index, attempt: attempt, lane: lane))
            let context = TaskContext(
                id: id, attempt: attempt, inputs: inputs,
                preferredInputID: preferredInputID, resources: resources,
                progressHandler: progressHandler(for: index))
            do {
                let result = try await runAttempt(body, timeout: settings.timeout, context: context)
                return Completion(outcome: .succeeded, result: result, attempts: attempt)
            } catch {
                let ending = Completion.ended(by: error, attempts: attempt)
                guard ending.outcome != .cancelled, attempt < maximumAttempts, Self.isRetryable(error) else {
                    return ending
                }
                let delay = max(backoff(afterAttempt: attempt), Self.retryAfter(error, cap: options.retryMaxDelay))
                emit(.nodeRetrying(node: index, attempt: attempt, message: ending.outcome.reason, delay: delay))
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    return Completion(outcome: .cancelled, attempts: attempt)
                }
                attempt += 1
            }
        }
    }

    /// How long an attempt cancelled at its deadline may take to end (`min` with the limit)
    /// before its node ends without it.
    static let abandonAfter = Duration.seconds(1)

    /// Runs one attempt of `body`. With a `timeout`, the attempt is cancelled at the deadline and
    /// ends with `EngineError.timedOut`, whatever it returns or throws then: once it has ended
    /// (an `exec` once its process group is dead and its outputs removed), or `abandonAfter` (at
    /// most the limit) after the deadline if it ignores the cancellation. An attempt abandoned so
    /// finishes on its own, kept by the watchdog (the run waits for it before it returns), and
    /// its late result is discarded.
    func runAttempt(
        _ body: @escaping @Sendable (TaskContext) async throws -> any OperationResult, timeout: Duration?,
        context: TaskContext
    ) async throws -> any OperationResult {
        guard let limit = timeout else {
            return try await body(context)
        }
        let race = AttemptRace()
        let timedOut = CancellationFlag()
        let attempt = Task {
            let result: Result<any OperationResult, any Error>
            do {
                result = .success(try await body(context))
            } catch {
                result = .failure(error)
            }
            race.settle(timedOut.isCancelled ? .failure(EngineError.timedOut(limit)) : result)
        }
        let watchdog = watchdog
        let deadline = watchdog.arm(after: limit) {
            timedOut.cancel()
            attempt.cancel()
            _ = watchdog.arm(after: min(limit, Self.abandonAfter)) {
                race.settle(.failure(EngineError.timedOut(limit)))
                watchdog.abandon(attempt)
            }
        }
        defer { watchdog.disarm(deadline) }
        return try await withTaskCancellationHandler {
            try await race.value()
        } onCancel: {
            attempt.cancel()
        }
    }

    func progressHandler(for index: Int) -> (@Sendable (ProgressUpdate) -> Void)? {
        guard let events else { return nil }
        let clock = clock
        return { update in
            let kind: EngineEvent.Kind =
                if let warning = update.warning {
                    .warning(node: index, message: warning)
                } else {
                    .nodeProgress(node: index, update)
                }
            events.receive(EngineEvent(elapsed: clock.elapsed, kind: kind))
        }
    }

    func emit(_ kind: EngineEvent.Kind) {
        events?.receive(EngineEvent(elapsed: clock.elapsed, kind: kind))
    }

    /// Exponential backoff with ±50 % jitter, capped.
    private func backoff(afterAttempt attempt: Int) -> Duration {
        let exponential = options.retryBaseDelay * (1 << min(attempt - 1, 20))
        let capped = min(exponential, options.retryMaxDelay)
        return capped * Double.random(in: 0.5..<1.5)
    }

    /// The wait the error asks for (HTTP `Retry-After`), at most `cap`.
    private static func retryAfter(_ error: any Error, cap: Duration) -> Duration {
        min((error as? any RetryClassifying)?.retryAfter ?? .zero, cap)
    }

    private static func isRetryable(_ error: any Error) -> Bool {
        (error as? any RetryClassifying)?.isRetryable ?? true
    }
}

/// Time since the start of a run.
struct RunClock: Sendable {
    let start = ContinuousClock.now

    /// Elapsed time since `start`.
    var elapsed: Duration { ContinuousClock.now - start }

    /// Elapsed nanoseconds since `start`: compact, for per-node bookkeeping.
    var nanoseconds: Int64 {
        let components = elapsed.components
        return components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// The duration `nanoseconds` stands for, or nil for a negative (never recorded) value.
    static func duration(nanoseconds: Int64) -> Duration? {
        nanoseconds < 0 ? nil : .nanoseconds(nanoseconds)
    }
}
