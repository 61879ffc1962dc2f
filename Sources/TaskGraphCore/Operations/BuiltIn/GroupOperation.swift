/// `group`: no work, only dependencies, like ninja's `phony` (e.g. an `all` target).
struct GroupOperation: BuiltInAction {
    static let type = OperationType(
        name: "group", summary: "Does nothing; groups its dependencies (e.g. an 'all' target).",
        makeAction: { _ in GroupOperation() })

    var cacheVersion: Int { 1 }

    var constantResult: (any OperationResult)? { EmptyResult() }

    func run(in context: TaskContext) async throws -> any OperationResult {
        EmptyResult()
    }
}
