import TaskGraphCore
import TaskGraphCrypto

extension OperationRegistry {
    /// The core operations, `encrypt` and `decrypt`.
    static let crypto = OperationRegistry(CoreOperations.types() + CryptoOperations.types)
}
