/// Which results a run keeps in the store: the materialisation trade-off of Nectar (OSDI '10)
/// and Helix (VLDB '18). A result is left out when running its operation again, with those of
/// its inputs that were left out too, costs less than writing it now and reading it back once;
/// its record then names an `UnstoredResult` (docs/cache.md, "What is kept").
///
/// Only a result that is an input of another operation (a final result is always kept), of an
/// action that recomputes it from its inputs alone (`CacheableAction.isRecomputable`), whose
/// size is known without encoding it (`OperationResult.payloadByteCount`), on a run without a cluster
/// (whose jobs read their inputs from the store) may be left out.
public struct StoragePolicy: Sendable {
    /// What storing a result costs per byte, in seconds: writing its blob (encoding it, hashing
    /// and writing the file's pages, which the system then writes to disk) and, when a
    /// dependent runs, reading it back, checking its digest and decoding it. Measured on the
    /// project's VM with a 36 MB blob (docs/cache.md, "What is kept"): about 4 ns to write and
    /// 4 ns to read back.
    public var secondsPerByte: Double
    /// What storing a result costs besides its bytes: creating the blob's file and opening it
    /// again, about 60 µs.
    public var secondsPerBlob: Double

    /// The rule with the costs measured on the project's VM.
    public init() {
        self.init(secondsPerByte: 8e-9, secondsPerBlob: 60e-6)
    }

    /// A rule with these costs; zero for both stores every result.
    public init(secondsPerByte: Double, secondsPerBlob: Double) {
        self.secondsPerByte = secondsPerByte
        self.secondsPerBlob = secondsPerBlob
    }

    /// Whether a result of `byteCount` bytes that takes `recomputeSeconds` to compute again
    /// is worth storing.
    public func keeps(byteCount: UInt64, recomputeSeconds: Double) -> Bool {
        recomputeSeconds >= secondsPerBlob + Double(byteCount) * secondsPerByte
    }
}
