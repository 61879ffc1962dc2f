import Foundation

/// The other side of a `RemoteExecutor`: runs one `RemoteJob` with the same operation types as a
/// local run, reading its inputs from the store and writing its result, its files' blobs and
/// (for a job with a key) its action record there, so a later run reuses it like any other.
/// A fused chain's job runs its operations in order in this process, each given the previous
/// one's result in memory; only the last one's result is stored.
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
            do {
                for input in job.inputs {
                    inputs.append(TaskContext.Input(id: input.id, result: try await store.loadResult(input.digest)))
                }
            } catch {
                return .failed(String(describing: error))
            }
            guard let chain = job.chain else {
                return await step(job.setup, job: job, inputs: inputs, storing: true, resources: resources).completion
            }
            let setups = [job.setup] + chain
            var completions: [RemoteCompletion] = []
            for (index, setup) in setups.enumerated() {
                let (completion, result) = await step(
                    setup, job: job, inputs: inputs, storing: index == setups.count - 1, resources: resources)
                completions.append(completion)
                guard let result else { break }
                inputs = [TaskContext.Input(id: setup.id, result: result)]
            }
            return .fused(completions)
        }
    }

    /// Runs the operation `setup` of `job` with `inputs`: its completion, and its result when it
    /// succeeded. Stores the result only when `storing`, records it when the job has a key.
    private func step(
        _ setup: OperationSetup, job: RemoteJob, inputs: [TaskContext.Input], storing: Bool, resources: RunResources
    ) async -> (completion: RemoteCompletion, result: (any OperationResult)?) {
        do {
            let action = try registry.makeAction(for: setup).action
            let context = TaskContext(
                id: setup.id, attempt: job.attempt, inputs: inputs, preferredInputID: setup.preferredInput,
                resources: resources)
            let started = ContinuousClock.now
            let result = try await action.run(in: context)
            let record = try await store.storeBlobs(
                of: result, outputFiles: (action as? any CacheableAction)?.outputFiles ?? [], id: setup.id,
                components: job.components ?? KeyComponents(), seconds: (ContinuousClock.now - started).inSeconds,
                storingResult: storing)
            if let key = job.key { try await store.write(record, for: key) }
            return (.succeeded(record), result)
        } catch {
            return (.failed(String(describing: error)), nil)
        }
    }
}
