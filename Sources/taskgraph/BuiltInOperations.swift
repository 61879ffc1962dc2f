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

extension ResultRegistry {
    /// Every result kind the built-in operations produce: what the store can read back.
    static let builtIn = ResultRegistry(
        CoreOperations.resultKinds + ImagingOperations.resultKinds + NetworkOperations.resultKinds)
}
