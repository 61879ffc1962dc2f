import Foundation

/// The other side of a `RemoteExecutor`: runs one `RemoteJob` with the same operation types as a
/// local run, reading its inputs from the store and writing its result, its files' blobs and
/// (for a job with a key) its action record there, so a later run reuses it like any other.
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
        await RunResources.$current.withValue(resources) {
            do {
                let action = try registry.makeAction(for: job.setup)
                var inputs: [TaskContext.Input] = []
                for input in job.inputs {
                    inputs.append(TaskContext.Input(id: input.id, artifact: try await store.loadResult(input.digest)))
                }
                let context = TaskContext(
                    id: job.setup.id, attempt: job.attempt, inputs: inputs, preferredInputID: job.setup.preferredInput,
                    resources: resources)
                let started = ContinuousClock.now
                let result = try await action.run(in: context)
                let record = try await store.storeBlobs(
                    of: result, outputFiles: (action as? any CacheableAction)?.outputFiles ?? [], id: job.setup.id,
                    components: job.components ?? KeyComponents(), seconds: (ContinuousClock.now - started).inSeconds)
                if let key = job.key { try await store.write(record, for: key) }
                return .succeeded(record)
            } catch {
                return .failed(String(describing: error))
            }
        }
    }
}
