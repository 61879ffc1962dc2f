import Synchronization

/// A flag that a task's cancellation handler sets and blocking work on another thread polls.
package final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// A flag not set yet.
    package init() {}

    /// Marks the work as cancelled.
    package func cancel() {
        value.store(true, ordering: .releasing)
    }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool { value.load(ordering: .acquiring) }

    /// Runs `body` (which polls the flag), setting the flag when the current task is cancelled.
    package static func run<T>(_ body: (CancellationFlag) async throws -> T) async rethrows -> T {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await body(flag)
        } onCancel: {
            flag.cancel()
        }
    }
}
