import Crypto
import Foundation
import TaskGraphCore

/// The authenticated ciphers of `encrypt` and `decrypt`. Both use the combined layout
/// `nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes)` of swift-crypto's `SealedBox.combined`, which
/// Python's `cryptography` produces as `nonce + AESGCM(key).encrypt(nonce, data, None)`.
public enum AEADCipher: String, CaseIterable, Sendable {
    /// AES-256 in Galois/Counter Mode: the default.
    case aes256GCM = "aes-256-gcm"
    /// ChaCha20 with a Poly1305 authenticator (RFC 8439).
    case chaCha20Poly1305 = "chacha20-poly1305"

    /// Bytes of nonce before the ciphertext.
    static let nonceByteCount = 12
    /// Bytes of authentication tag after the ciphertext.
    static let tagByteCount = 16

    /// `plaintext` encrypted under `key` with a fresh random nonce, in the combined layout.
    func seal(_ plaintext: Data, using key: SymmetricKey) throws -> Data {
        switch self {
        case .aes256GCM:
            let box = try AES.GCM.seal(plaintext, using: key)
            return box.nonce.withUnsafeBytes { Data($0) } + box.ciphertext + box.tag
        case .chaCha20Poly1305:
            return try ChaChaPoly.seal(plaintext, using: key).combined
        }
    }

    /// The plaintext of `combined`, authenticated with `key`.
    /// - Throws: `CryptoError.inputTooShort` when `combined` cannot hold a nonce and a tag,
    ///   `CryptoError.authenticationFailed` when the key is wrong or any bit was changed.
    func open(_ combined: Data, using key: SymmetricKey) throws(CryptoError) -> Data {
        let minimum = Self.nonceByteCount + Self.tagByteCount
        guard combined.count >= minimum else { throw .inputTooShort(byteCount: combined.count, minimum: minimum) }
        do {
            switch self {
            case .aes256GCM:
                return try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key)
            case .chaCha20Poly1305:
                return try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: combined), using: key)
            }
        } catch {
            throw .authenticationFailed
        }
    }
}
