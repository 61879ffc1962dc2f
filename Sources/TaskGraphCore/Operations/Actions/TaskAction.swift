/// The work of one node in the graph. Built-in operations and a program's own operation types
/// conform to this same protocol and run on the same engine.
public protocol TaskAction: Sendable {
    /// Does the work and returns the result handed to dependents.
    ///
    /// Implementations check `Task.isCancelled` (or call `try Task.checkCancellation()`) at least
    /// every few milliseconds of work and never block the cooperative thread pool: blocking calls
    /// go through `context.resources.blockingIO` (or, in code without the context, `BlockingIO.run`).
    /// - Parameter context: the node's identity, its dependencies' results and a progress channel.
    /// - Throws: any error; it fails the node (and is retried if the node allows retries).
    func run(in context: TaskContext) async throws -> any OperationResult
}

/// A task action made from a closure, for graphs built in code.
public struct ClosureAction: TaskAction {
    private let body: @Sendable (TaskContext) async throws -> any OperationResult

    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (TaskContext) async throws -> any OperationResult) {
        self.body = body
    }

    public func run(in context: TaskContext) async throws -> any OperationResult {
        try await body(context)
    }
}
