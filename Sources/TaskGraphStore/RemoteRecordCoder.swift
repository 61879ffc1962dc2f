import Foundation
import TaskGraphCore

/// An action record as a remote cache holds it at `ac/<key hex>` (docs/cache.md, "Remote
/// cache"): the store's record encoding (`ActionRecordCoder`, `TGAR`), or, when the cache is
/// signed, `TGRS`, a `u8` version (1), the 32-byte HMAC-SHA256 of the record bytes, then those.
enum RemoteRecordCoder {
    /// The first bytes of a signed record: `TGRS`.
    static let signedMagic = Data("TGRS".utf8)
    /// The version of the signed layout.
    static let signedVersion: UInt8 = 1
    /// The bytes of an HMAC-SHA256.
    static let signatureCount = 32

    /// `record`'s bytes, signed when `signer` is given.
    static func encode(_ record: ActionRecord, signer: (any RecordSigner)?) -> Data {
        let bytes = ActionRecordCoder.encode(record)
        guard let signer else { return bytes }
        return signedMagic + Data([signedVersion]) + signer.signature(of: bytes) + bytes
    }

    /// The record in `data`, when it was written for `key` and, with `signer`, signed with its
    /// key; otherwise nil (a miss). Without a signer, a signed record is read unchecked.
    static func decode(_ data: Data, key: ContentDigest, signer: (any RecordSigner)?) -> ActionRecord? {
        var bytes = data
        if data.starts(with: signedMagic) {
            let header = signedMagic.count + 1
            guard data.count > header + signatureCount, data[data.startIndex + signedMagic.count] == signedVersion
            else { return nil }
            let signature = data.subdata(in: data.startIndex + header..<data.startIndex + header + signatureCount)
            bytes = data.subdata(in: data.startIndex + header + signatureCount..<data.endIndex)
            if let signer, !constantTimeEqual(signer.signature(of: bytes), signature) { return nil }
        } else if signer != nil {
            return nil
        }
        guard let record = ActionRecordCoder.decode(bytes), record.components.key == key else { return nil }
        return record
    }

    /// Whether `a` and `b` are equal, in a time that does not depend on where they differ.
    private static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
