import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphSlurm

extension OperationRegistry {
    /// Every operation type the command-line tool offers: the core's, with `save` encoding
    /// images, and those of each operation family; and the remote executors it offers (`slurm`).
    static let builtIn = {
        var registry = OperationRegistry(
            CoreOperations.types(saveEncoder: ImagingOperations.saveEncoder)
                + ImagingOperations.types + NetworkOperations.types + CryptoOperations.types)
        registry.register(SlurmExecutor.declaration)
        return registry
    }()
}

extension ResultRegistry {
    /// Every result kind the built-in operations produce: what the store can read back.
    static let builtIn = ResultRegistry(
        CoreOperations.resultKinds + ImagingOperations.resultKinds + NetworkOperations.resultKinds)
}
