import TaskGraphCore

/// `decrypt` in Swift: authenticates and decrypts its input, keyed as the same `decrypt` in a
/// pipeline file.
///
/// ```swift
/// let plain = try Decrypt(key: .file("photos.key", directory: projectDirectory))
/// ```
public struct Decrypt: ConfiguredOperation {
    /// The action with its setup.
    public let configured: ConfiguredAction

    /// A `decrypt` with the key at `key` and `cipher` (default AES-256-GCM).
    /// - Throws: `OperationError` with `validate`'s message for a value it does not accept, or
    ///   the `CryptoError` `validate` reports.
    public init(key: KeyLocation, cipher: AEADCipher? = nil) throws {
        configured = try key.configure(DecryptOperation.type, cipher: cipher)
    }
}
