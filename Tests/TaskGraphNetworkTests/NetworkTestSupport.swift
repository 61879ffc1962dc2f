import TaskGraphCore
import TaskGraphNetwork

extension OperationRegistry {
    /// The core operations and `download`.
    static let network = OperationRegistry(CoreOperations.types() + NetworkOperations.types)
}
