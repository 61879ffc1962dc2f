import Foundation

/// Signs the action records a remote cache holds, so that a writable cache cannot be poisoned
/// by someone without the key (`remote_cache_key_env`). `TaskGraphCrypto`'s `HMACSigner`
/// computes HMAC-SHA256; the CLI makes it this store's signer.
public protocol RecordSigner: Sendable {
    /// The signature of `data`: 32 bytes for HMAC-SHA256.
    func signature(of data: Data) -> Data
}
