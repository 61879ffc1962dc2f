import Crypto
import Foundation

/// Computes a `ContentDigest` from bytes fed in pieces.
public struct ContentHasher {
    /// The SHA-256 state.
    private var state = SHA256()
    /// How many bytes the caller promised to feed after the result header, if hashing a result.
    private let expectedCount: Int?
    /// How many bytes were fed after the result header.
    private var fedCount = 0

    /// A hasher of arbitrary bytes.
    public init() {
        expectedCount = nil
    }

    /// A hasher already fed the header of a serialised result (`SerializedResult.header`): feed
    /// it exactly `payloadCount` bytes of payload, then `finalize()` gives the result's digest.
    /// - Throws: `ResultCodingError.invalidKindName`.
    public init(resultKind kind: String, payloadCount: Int) throws {
        let header = try SerializedResult.header(kind: kind, payloadCount: payloadCount)
        var state = SHA256()
        header.withUnsafeBytes { state.update(bufferPointer: $0) }
        self.state = state
        expectedCount = payloadCount
    }

    /// Feeds `bytes`.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        state.update(bufferPointer: bytes)
        fedCount += bytes.count
    }

    /// Feeds `data`.
    public mutating func update(_ data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update($0) }
        }
    }

    /// Feeds `data` in slices of `chunkSize` bytes, checking for cancellation and yielding the
    /// thread between them, so hashing hundreds of megabytes does not hold a cooperative thread.
    /// - Throws: `CancellationError`.
    public mutating func update(chunked data: Data, chunkSize: Int = 1 << 20) async throws {
        var start = data.startIndex
        while start < data.endIndex {
            try Task.checkCancellation()
            let end = data.index(start, offsetBy: chunkSize, limitedBy: data.endIndex) ?? data.endIndex
            update(data[start..<end])
            start = end
            if end < data.endIndex { await Task.yield() }
        }
    }

    /// The digest of everything fed.
    /// - Precondition: a result hasher was fed exactly the payload count it was made for.
    public func finalize() -> ContentDigest {
        if let expectedCount {
            precondition(fedCount == expectedCount, "fed \(fedCount) payload bytes to a hasher made for \(expectedCount)")
        }
        return ContentDigest(bytes: Array(state.finalize()))!
    }
}
