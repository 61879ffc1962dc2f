/// Which results a run keeps in the store: the materialisation trade-off of Nectar (OSDI '10)
/// and Helix (VLDB '18), weighted for the run that pays. A result is kept when writing it costs
/// at most a tenth of running its operation again (with those of its inputs that were left out
/// too): writing it then adds at most 10 % to what recomputing it costs, and a later run that
/// needs it reads it back (about one and a half times the writing) instead of recomputing it,
/// ten times the writing. Otherwise its record names an `UnstoredResult` (docs/cache.md, "What
/// is kept").
///
/// Only a result that is an input of another operation (a final result is always kept), of an
/// action that recomputes it from its inputs alone (`CacheableAction.isRecomputable`), whose
/// size is known without encoding it (`OperationResult.payloadByteCount`), on a run without a cluster
/// (whose jobs read their inputs from the store) may be left out.
public struct StoragePolicy: Sendable {
    /// How many times the cost of writing a result recomputing it must cost for it to be kept.
    public static let recomputeToWriteRatio = 10.0

    /// The cost given, or nil for `StorageCost.onThisMachine`.
    private let givenCost: StorageCost?

    /// The rule with what writing costs on this machine (`StorageCost.onThisMachine`, measured
    /// the first time a decision needs it), weighed against run times measured on the same CPU.
    public init() {
        givenCost = nil
    }

    /// A rule with these costs of writing; zero for both stores every result.
    public init(secondsPerByte: Double, secondsPerBlob: Double) {
        givenCost = StorageCost(secondsPerByte: secondsPerByte, secondsPerBlob: secondsPerBlob)
    }

    /// What writing a result costs by this rule.
    public var cost: StorageCost {
        givenCost ?? .onThisMachine
    }

    /// Whether a result of `byteCount` bytes that takes `recomputeSeconds` to compute again
    /// is worth storing.
    public func keeps(byteCount: UInt64, recomputeSeconds: Double) -> Bool {
        recomputeSeconds >= Self.recomputeToWriteRatio * cost.seconds(toWrite: byteCount)
    }
}
