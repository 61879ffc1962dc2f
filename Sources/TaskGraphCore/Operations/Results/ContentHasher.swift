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

    /// Feeds `data` in slices (`update(count:sliceSize:slices:)`).
    /// - Throws: `CancellationError`.
    public mutating func update(chunked data: Data, sliceSize: Int = defaultSliceSize) async throws {
        try await update(count: data.count, sliceSize: sliceSize) { range, hasher in
            hasher.update(data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)])
        }
    }

    /// The bytes hashed between checks for cancellation: 1 MiB, a millisecond or two.
    public static let defaultSliceSize = 1 << 20

    /// Feeds `count` bytes slice by slice: `feed` is handed each range of at most `sliceSize`
    /// bytes, in order, and feeds those bytes to the hasher it is given. Between slices it checks
    /// for cancellation and yields the thread, so hashing hundreds of megabytes does not hold a
    /// cooperative thread.
    /// - Throws: `CancellationError`.
    public mutating func update(
        count: Int, sliceSize: Int = defaultSliceSize, slices feed: (Range<Int>, inout ContentHasher) -> Void
    ) async throws {
        var start = 0
        while start < count {
            try Task.checkCancellation()
            let end = start + min(sliceSize, count - start)
            feed(start..<end, &self)
            start = end
            if end < count { await Task.yield() }
        }
    }

    /// The digest of everything fed.
    /// - Precondition: a result hasher was fed exactly the payload count it was made for.
    public func finalize() -> ContentDigest {
        if let expectedCount {
            precondition(
                fedCount == expectedCount, "fed \(fedCount) payload bytes to a hasher made for \(expectedCount)")
        }
        return ContentDigest(bytes: Array(state.finalize()))!
    }
}
