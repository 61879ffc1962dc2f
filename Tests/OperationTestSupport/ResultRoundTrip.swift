import Foundation
import TaskGraphCore

/// What became of a result taken through its serialised forms.
public struct ResultRoundTrip<Result: OperationResult> {
    /// The payload `serialized()` wrote.
    public let payload: Data
    /// The canonical encoding (`SerializedResult.encoded`).
    public let encoded: Data
    /// The payload read back by the type itself.
    public let decoded: Result
    /// The encoding read back through the registry, by kind.
    public let fromRegistry: any OperationResult
    /// The result's own `digest`.
    public let digest: ContentDigest
    /// The SHA-256 of `encoded`, which `digest` must equal.
    public let digestOfEncoding: ContentDigest
}

/// Serialises `value`, encodes it, and reads both forms back (the encoding through `registry`).
public func roundTrip<Result: OperationResult>(
    _ value: Result, through registry: ResultRegistry
) async throws -> ResultRoundTrip<Result> {
    let payload = try await value.serialized()
    let encoded = try await SerializedResult(of: value).encoded
    return ResultRoundTrip(
        payload: payload, encoded: encoded, decoded: try Result(serialized: payload),
        fromRegistry: try registry.decode(encoded: encoded), digest: try await value.digest,
        digestOfEncoding: ContentDigest.sha256(of: encoded))
}

/// Damaged copies of `encoded`: every shorter prefix (the empty one included), and the whole
/// with one byte more.
public func damagedCopies(of encoded: Data) -> [Data] {
    (0..<encoded.count).map { encoded.prefix($0) } + [encoded + [0]]
}

/// Copies of `encoded` with one byte inverted, one copy per byte.
public func flippedCopies(of encoded: Data) -> [Data] {
    encoded.indices.map { index in
        var copy = encoded
        copy[index] ^= 0xff
        return copy
    }
}

/// The message each of `copies` fails with when read through `registry`, or `decoded` for one
/// that reads (which none should).
public func decodingFailures(of copies: [Data], through registry: ResultRegistry) -> [String] {
    copies.map { copy in
        do {
            _ = try registry.decode(encoded: copy)
            return "decoded"
        } catch let error as ResultCodingError {
            return error.description
        } catch {
            return "unexpected \(type(of: error)): \(error)"
        }
    }
}
