import TaskGraphCore

/// The crypto operation types, for a registry to assemble.
public enum CryptoOperations {
    /// `encrypt` and `decrypt`.
    public static let types: [OperationType] = [EncryptOperation.type, DecryptOperation.type]
}
