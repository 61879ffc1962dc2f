import Foundation
import OperationTestSupport
import TaskGraphCore
import TaskGraphNetwork
import Testing

/// The serialised form and digest of a download's result, written out literally: they are a wire
/// format (docs/results.md) and must never change.
@Suite struct DownloadedDataTests {
    private let registry = ResultRegistry(CoreOperations.resultKinds + NetworkOperations.resultKinds)

    @Test func keepsTheURLAndTheBody() async throws {
        let value = DownloadedData(url: "https://example.com/lake.jpg", data: Data("body".utf8))
        let trip = try await roundTrip(value, through: registry)
        #expect(
            trip.payload.hex
                == "01000000000000001c68747470733a2f2f6578616d706c652e636f6d2f6c616b652e6a70670000000000000004626f6479")
        #expect(trip.decoded == value)
        #expect(trip.fromRegistry as? DownloadedData == value)
        #expect(trip.digest.description == "sha256:0f32dc1df1831b89863bba6d847403a13bdc807612da1eafbe5c4754488a5770")
        #expect(trip.digest == trip.digestOfEncoding)
        #expect(NetworkOperations.resultKinds.map(\.name) == ["network.download"])
    }

    @Test func everyTruncationOrExtraByteIsAnError() async throws {
        let encoded = try await SerializedResult(of: DownloadedData(url: "u", data: Data([1]))).encoded
        let failures = decodingFailures(of: damagedCopies(of: encoded), through: registry)
        #expect(failures.count == encoded.count + 1)
        #expect(!failures.contains { $0 == "decoded" || $0.hasPrefix("unexpected") }, "\(failures)")
        #expect(
            throws: ResultCodingError.truncated(
                subject: "'network.download' result", field: "data length", offset: 10, needed: 8, remaining: 2)
        ) {
            try DownloadedData(serialized: Data([1, 0, 0, 0, 0, 0, 0, 0, 1, 0x75, 0, 0]))
        }
    }
}
