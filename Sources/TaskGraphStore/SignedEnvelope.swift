import Foundation

/// Bytes signed for a remote cache with `remote_cache_key_env` (docs/cache.md, "Remote cache"):
/// `TGRS`, a `u8` version (1), the 32-byte HMAC-SHA256, then the bytes. The signature covers a
/// `context` before the bytes, which is not stored: what the reader expects the bytes to be for
/// (a cluster job's completion names its job), so that signed bytes copied elsewhere do not verify.
public enum SignedEnvelope {
    /// The first bytes of signed bytes: `TGRS`.
    static let magic = Data("TGRS".utf8)
    /// The version of the layout.
    static let version: UInt8 = 1
    /// The bytes of an HMAC-SHA256.
    static let signatureCount = 32

    /// `bytes`, signed with `signer` for `context` when there is a signer; else `bytes` as they are.
    public static func seal(_ bytes: Data, context: Data = Data(), signer: (any RecordSigner)?) -> Data {
        guard let signer else { return bytes }
        return magic + Data([version]) + signer.signature(of: context + bytes) + bytes
    }

    /// The bytes `data` carries: with `signer`, only when they are signed with its key for
    /// `context`; without one, signed or not, unchecked. Nil when they cannot be trusted.
    public static func open(_ data: Data, context: Data = Data(), signer: (any RecordSigner)?) -> Data? {
        guard data.starts(with: magic) else { return signer == nil ? data : nil }
        let header = magic.count + 1
        guard data.count > header + signatureCount, data[data.startIndex + magic.count] == version else { return nil }
        let signature = data.subdata(in: data.startIndex + header..<data.startIndex + header + signatureCount)
        let bytes = data.subdata(in: data.startIndex + header + signatureCount..<data.endIndex)
        if let signer, !constantTimeEqual(signer.signature(of: context + bytes), signature) { return nil }
        return bytes
    }

    /// Whether `a` and `b` are equal, in a time that does not depend on where they differ.
    private static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
