import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork

extension OperationRegistry {
    /// Every operation type the command-line tool offers: the core's, with `save` encoding
    /// images, and those of each operation family.
    static let builtIn = OperationRegistry(
        CoreOperations.types(saveEncoder: ImagingOperations.saveEncoder)
            + ImagingOperations.types + NetworkOperations.types + CryptoOperations.types)
}
