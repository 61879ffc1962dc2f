import Crypto
import Foundation

/// HMAC-SHA256 with a secret key: what signs the action records of a remote cache
/// (`remote_cache_key_env`), so that one without the key cannot write records others trust.
public struct HMACSigner: Sendable {
    /// The key's bytes (a `SymmetricKey` is made for each signature: it is not `Sendable`).
    private let secret: Data

    /// A signer with the bytes of `secret` (UTF-8) as its key.
    public init(secret: String) {
        self.secret = Data(secret.utf8)
    }

    /// The 32-byte HMAC-SHA256 of `data`.
    public func signature(of data: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: secret)))
    }
}
