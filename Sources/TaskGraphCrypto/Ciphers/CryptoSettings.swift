import TaskGraphCore

/// The parameters `encrypt` and `decrypt` share: the cipher and where the key comes from.
struct CryptoSettings: Sendable {
    /// The shared parameter declarations.
    static let parameters = [
        ParameterSpec(
            "key_file", .inputPath, optional: true, existingFile: true,
            "File holding the 256-bit key: 32 raw bytes, 64 hex characters or base64; relative to the pipeline file."),
        ParameterSpec(
            "key_env", .string, optional: true,
            "Environment variable holding the key as 64 hex characters or base64 (instead of key_file)."),
        ParameterSpec(
            "cipher", .choice(AEADCipher.allCases.map(\.rawValue)), default: .string(AEADCipher.aes256GCM.rawValue),
            "Layout nonce(12) ‖ ciphertext ‖ tag(16) either way."),
    ]

    /// The environment variable an instance reads: the one `key_env` names, if any.
    static let environmentNames: @Sendable (Parameters) -> [String] = { parameters in
        parameters.string("key_env").map { [$0] } ?? []
    }

    /// The cipher.
    let cipher: AEADCipher
    /// Where the key is read from when the operation runs.
    let keySource: CipherKey.Source
    /// The declared environment of the setup: the `key_env` variable, if it is set.
    let environment: [String: String]
    /// `key_file` as written, relative to the pipeline file: the name of its key component.
    let writtenKeyFile: String?

    /// Reads the settings of one operation instance.
    /// - Throws: `CryptoError.keySourceNotChosen` unless exactly one of `key_file` and `key_env` is set.
    init(_ setup: OperationSetup) throws(CryptoError) {
        let parameters = setup.parameters
        switch (parameters.string("key_file"), parameters.string("key_env")) {
        case (let path?, nil):
            keySource = .file(PathResolver.resolve(path, in: setup.pipelineDirectory))
            writtenKeyFile = path
        case (nil, let name?):
            keySource = .environment(name)
            writtenKeyFile = nil
        default: throw .keySourceNotChosen
        }
        cipher = parameters.string("cipher").flatMap(AEADCipher.init(rawValue:)) ?? .aes256GCM
        environment = setup.environment
    }

    /// `file.<key_file>`: the digest of the key file, which does not reveal the key. A key from
    /// `key_env` needs nothing here: the declared environment enters every key, as a digest.
    func addKeyComponents(to key: inout KeyComponents, files: any FileDigesting) async throws {
        if let writtenKeyFile, case .file(let path) = keySource {
            key.add("file.\(writtenKeyFile)", try await files.digest(ofFile: path).description)
        }
    }

    /// Reads the key now (blocking: call it through `BlockingIO.run`).
    func loadKey() throws(CryptoError) -> CipherKey {
        try CipherKey(from: keySource, environment: environment)
    }
}
