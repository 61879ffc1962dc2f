import TaskGraphCore

/// `encrypt` in Swift: encrypts its input with a fresh nonce, keyed as the same `encrypt` in a
/// pipeline file.
public struct Encrypt: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// An `encrypt` with the key at `key` and `cipher` (default AES-256-GCM).
    /// - Throws: `OperationError` with `validate`'s message for a value it does not accept, or
    ///   the `CryptoError` `validate` reports.
    public init(key: KeyLocation, cipher: AEADCipher? = nil) throws {
        configured = try key.configure(EncryptOperation.type, cipher: cipher)
    }
}
