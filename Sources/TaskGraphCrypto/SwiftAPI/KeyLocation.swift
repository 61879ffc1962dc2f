import TaskGraphCore

/// Where `encrypt` and `decrypt` read their 256-bit key, in Swift: `key_file` or `key_env`.
public enum KeyLocation: Sendable {
    /// A file holding the key (32 raw bytes, 64 hex characters or base64), relative to
    /// `directory` (a pipeline file's directory) unless absolute.
    case file(String, directory: String)
    /// The environment variable `name` of `environment`, holding the key as 64 hex characters or
    /// base64. Only that variable is kept, and enters the key as a digest.
    case environment(String, in: [String: String])

    /// The action of `type` (`encrypt` or `decrypt`) with this key and `cipher`, with its setup.
    func configure(_ type: OperationType, cipher: AEADCipher?) throws -> ConfiguredAction {
        let cipherValue = cipher.map { ParameterValue.string($0.rawValue) }
        switch self {
        case .file(let path, let directory):
            return try type.configure(
                Parameters(setting: ["key_file": .string(path), "cipher": cipherValue]), pipelineDirectory: directory)
        case .environment(let name, let environment):
            return try type.configure(
                Parameters(setting: ["key_env": .string(name), "cipher": cipherValue]), environment: environment)
        }
    }
}
