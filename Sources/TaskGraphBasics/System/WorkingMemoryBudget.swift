import Synchronization

/// Bounds the working memory that decodes and pixel kernels hold at once: what they need while
/// they run beyond the image they produce.
///
/// Two photos in flight each hold an image or two, but what pushes a run's peak up is working
/// memory on top of that, when it coincides: a progressive JPEG cannot be decoded row by row, so
/// libjpeg-turbo keeps the whole image's DCT coefficients (2 bytes per sample: 51 MiB for a
/// 13-megapixel 4:2:2 photo) until the last scan is read, and gives them back only as it writes
/// the image (so a decode reserves their excess over the image, 13 MB there); a filter that
/// cannot overwrite its input holds a second image until it ends; the blur holds row buffers and
/// saved rows. Each reserves its working memory here first and waits, without holding a thread,
/// while others hold too much of the budget. One always starts when no other holds a
/// reservation, however large it is, and waiters start in arrival order; reservations last only
/// while the work runs, so they cannot wait on each other.
package final class WorkingMemoryBudget: Sendable {
    /// The budget of the run the current task belongs to (`RunResources.workingMemory`, set with
    /// `RunResources.current`); nil outside a run.
    @TaskLocal package static var current: WorkingMemoryBudget?

    /// Bytes that may be reserved at once (one reservation may exceed it alone).
    let limit: Int

    private struct Waiter {
        let id: Int
        let bytes: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var reserved = 0
        var holders = 0
        var waiters: [Waiter] = []
        var nextID = 0

        func admits(_ bytes: Int, limit: Int) -> Bool {
            holders == 0 || reserved + bytes <= limit
        }
    }

    private let state = Locked(State())

    /// A budget of `limit` bytes.
    package init(limit: Int) {
        self.limit = limit
    }

    /// Runs `body` holding a reservation of `bytes`, waiting first until the budget admits it.
    /// Reservations of 0 bytes run at once.
    /// - Throws: `CancellationError` if the task is cancelled while waiting; whatever `body` throws.
    package func withReservation<T>(of bytes: Int, _ body: () async throws -> T) async throws -> T {
        guard bytes > 0 else { return try await body() }
        try await reserve(bytes)
        defer { release(bytes) }
        return try await body()
    }

    /// Runs `body` holding a reservation of `bytes` in the budget of the current run
    /// (`current`); outside a run there is no budget, and `body` runs at once.
    /// - Throws: `CancellationError` if the task is cancelled while waiting; whatever `body` throws.
    package static func withReservationInCurrentRun<T>(
        of bytes: Int, _ body: () async throws -> T
    ) async throws -> T {
        guard let budget = current else { return try await body() }
        return try await budget.withReservation(of: bytes, body)
    }

    /// Bytes reserved right now (for tests).
    var reservedBytes: Int { state.withLock { $0.reserved } }

    /// Reservations waiting right now (for tests).
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    private func reserve(_ bytes: Int) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock, a cancellation is either seen here or finds the waiter queued.
                let start: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard state.waiters.isEmpty, state.admits(bytes, limit: limit) else {
                        state.waiters.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                        return nil
                    }
                    state.reserved += bytes
                    state.holders += 1
                    return .success(())
                }
                if let start { continuation.resume(with: start) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(throwing: CancellationError())
            // A waiter leaving the front may let the ones behind it start.
            resumeAdmitted()
        }
    }

    private func release(_ bytes: Int) {
        state.withLock { state in
            state.reserved -= bytes
            state.holders -= 1
        }
        resumeAdmitted()
    }

    /// Starts waiters from the front while the budget admits them.
    private func resumeAdmitted() {
        let admitted = state.withLock { state -> [Waiter] in
            var admitted: [Waiter] = []
            while let first = state.waiters.first, state.admits(first.bytes, limit: limit) {
                state.waiters.removeFirst()
                state.reserved += first.bytes
                state.holders += 1
                admitted.append(first)
            }
            return admitted
        }
        for waiter in admitted { waiter.continuation.resume() }
    }
}
