import Foundation

/// The other side of a `RemoteExecutor`: runs one `RemoteJob` with the same operation types as a
/// local run, reading its inputs from the store and writing its result, its files' blobs and
/// (for a job with a key) its action record there, so a later run reuses it like any other.
/// A fused chain's job runs its operations in order in this process, each given the previous
/// one's result in memory; only the last one's result is stored. A job that carries its files
/// runs in a `ScratchDirectory` holding them, removed afterwards.
public struct RemoteWorker: Sendable {
    /// The operation types jobs are made with.
    public let registry: OperationRegistry
    /// The store shared with the driver.
    public let store: any ResultStore

    /// A worker making actions with `registry` and reading and writing `store`.
    public init(registry: OperationRegistry, store: any ResultStore) {
        self.registry = registry
        self.store = store
    }

    /// Runs `job` with `resources` and says how it ended; never throws.
    public func run(_ job: RemoteJob, resources: RunResources) async -> RemoteCompletion {
        await resources.withCurrent {
            var inputs: [TaskContext.Input] = []
            let scratch: ScratchDirectory?
            do {
                for input in job.inputs {
                    inputs.append(TaskContext.Input(id: input.id, result: try await store.loadResult(input.digest)))
                }
                scratch = job.files == nil ? nil : try await ScratchDirectory.make(for: job, store: store)
            } catch {
                return .failed(String(describing: error))
            }
            let completion = await run(job, inputs: inputs, in: scratch, resources: resources)
            await scratch?.remove()
            return completion
        }
    }

    /// Runs `job`'s operations with `inputs`, in `scratch` when it carries its files.
    private func run(
        _ job: RemoteJob, inputs: [TaskContext.Input], in scratch: ScratchDirectory?, resources: RunResources
    ) async -> RemoteCompletion {
        guard let chain = job.chain else {
            return await step(job.setup, job: job, inputs: inputs, storing: true, in: scratch, resources: resources)
                .completion
        }
        let setups = [job.setup] + chain
        var inputs = inputs
        var completions: [RemoteCompletion] = []
        for (index, setup) in setups.enumerated() {
            let (completion, result) = await step(
                setup, job: job, inputs: inputs, storing: index == setups.count - 1, in: scratch, resources: resources)
            completions.append(completion)
            guard let result else { break }
            inputs = [TaskContext.Input(id: setup.id, result: result)]
        }
        return .fused(completions)
    }

    /// Runs the operation `setup` of `job` with `inputs` (in `scratch`, if any): its completion,
    /// and its result when it succeeded. Stores the result only when `storing`, records it when
    /// the job has a key. Results, records and messages name the driver's paths.
    private func step(
        _ setup: OperationSetup, job: RemoteJob, inputs: [TaskContext.Input], storing: Bool,
        in scratch: ScratchDirectory?, resources: RunResources
    ) async -> (completion: RemoteCompletion, result: (any OperationResult)?) {
        do {
            let action = try registry.makeAction(for: scratch?.moved(setup) ?? setup).action
            let context = TaskContext(
                id: setup.id, attempt: job.attempt, inputs: inputs, preferredInputID: setup.preferredInput,
                resources: resources)
            let started = ContinuousClock.now
            let result = try await action.run(in: context)
            var record = try await store.storeBlobs(
                of: scratch?.back(result) ?? result, outputFiles: (action as? any CacheableAction)?.outputFiles ?? [],
                id: setup.id, components: job.components ?? KeyComponents(),
                seconds: (ContinuousClock.now - started).inSeconds, storingResult: storing)
            if let scratch { record = scratch.back(record) }
            if let key = job.key { try await store.write(record, for: key) }
            return (.succeeded(record), result)
        } catch {
            let message = String(describing: error)
            return (.failed(scratch?.back(message: message) ?? message), nil)
        }
    }
}
