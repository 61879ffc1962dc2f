import TaskGraphCore

/// `encrypt`: encrypts its input with a 256-bit key and a fresh random nonce, in the layout
/// `decrypt` reads.
struct EncryptOperation: BuiltInAction {
    static let type = OperationType(
        name: "encrypt",
        summary: "Encrypts to nonce ‖ ciphertext ‖ tag (AES-256-GCM or ChaCha20-Poly1305) with a fresh random nonce.",
        parameters: CryptoSettings.parameters,
        input: .one(of: [.bytes]),
        produces: [.bytes],
        environmentNames: CryptoSettings.environmentNames,
        makeAction: { setup in try EncryptOperation(settings: CryptoSettings(setup)) })

    let settings: CryptoSettings

    var cacheVersion: Int { 1 }

    func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws {
        try await settings.addKeyComponents(to: &key, files: files)
    }

    func run(in context: TaskContext) async throws -> any OperationResult {
        let plaintext = try await context.input((any BytesProvider).self).data
        let settings = settings
        let sealed = try await BlockingIO.run {
            try settings.cipher.seal(plaintext, using: settings.loadKey().symmetricKey)
        }
        return BytesResult(sealed)
    }
}
