import Foundation
import TaskGraphCore

/// An action record as a remote cache holds it at `ac/<key hex>` (docs/cache.md, "Remote
/// cache"): the store's record encoding (`ActionRecordCoder`, `TGAR`), or, when the cache is
/// signed, that in a `SignedEnvelope` (`TGRS`, a `u8` version (1), the 32-byte HMAC-SHA256 of
/// the record bytes, then those).
enum RemoteRecordCoder {
    /// `record`'s bytes, signed when `signer` is given.
    static func encode(_ record: ActionRecord, signer: (any RecordSigner)?) -> Data {
        SignedEnvelope.seal(ActionRecordCoder.encode(record), signer: signer)
    }

    /// The record in `data`, when it was written for `key` and, with `signer`, signed with its
    /// key; otherwise nil (a miss). Without a signer, a signed record is read unchecked.
    static func decode(_ data: Data, key: ContentDigest, signer: (any RecordSigner)?) -> ActionRecord? {
        guard let bytes = SignedEnvelope.open(data, signer: signer), let record = ActionRecordCoder.decode(bytes),
            record.components.key == key
        else { return nil }
        return record
    }
}
