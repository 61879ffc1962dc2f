import TaskGraphCore

/// `decrypt`: authenticates and decrypts its input with a 256-bit key.
struct DecryptOperation: BuiltInAction {
    static let type = OperationType(
        name: "decrypt",
        summary:
            "Decrypts nonce ‖ ciphertext ‖ tag (AES-256-GCM or ChaCha20-Poly1305); fails unless the data "
            + "authenticates.",
        parameters: CryptoSettings.parameters,
        input: .one(of: [.bytes]),
        produces: [.bytes],
        environmentNames: CryptoSettings.environmentNames,
        makeAction: { setup in try DecryptOperation(settings: CryptoSettings(setup)) })

    let settings: CryptoSettings

    var cacheVersion: Int { 1 }

    func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws {
        try await settings.addKeyComponents(to: &key, files: files)
    }

    func run(in context: TaskContext) async throws -> any OperationResult {
        let sealed = try await context.input((any BytesProvider).self).data
        let settings = settings
        let plaintext = try await BlockingIO.run {
            try settings.cipher.open(sealed, using: settings.loadKey().symmetricKey)
        }
        return BytesResult(plaintext)
    }
}
