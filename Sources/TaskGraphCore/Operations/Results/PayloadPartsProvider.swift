import Foundation

/// A result whose payload already lies in memory as a few parts (an image: its header and its
/// pixels), which a store hashes and writes as they are instead of serialising the result into
/// one more copy of it.
public protocol PayloadPartsProvider: OperationResult {
    /// Calls `body` with the bytes of `serialized()`, in order, as parts that may wrap the
    /// result's own memory without copying it: valid only during the call.
    /// - Throws: what `serialized()` throws for a value its layout cannot hold; what `body` throws.
    func withPayloadParts<Result>(_ body: ([Data]) throws -> Result) throws -> Result
}
