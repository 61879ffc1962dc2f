import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphStore

/// The record encoding: a round trip, a fixed layout, and refusal of every damaged copy.
@Suite struct ActionRecordCoderTests {
    private let record = sampleRecord(
        result: ContentDigest.sha256(of: Data("r".utf8)),
        file: .init(path: "/out/a.jpg", digest: ContentDigest.sha256(of: Data("f".utf8))))

    @Test func roundTrips() {
        #expect(ActionRecordCoder.decode(ActionRecordCoder.encode(record)) == record)
    }

    @Test func startsWithItsMagicAndVersion() {
        let encoded = ActionRecordCoder.encode(record)
        #expect(Array(encoded.prefix(5)) == Array("TGAR".utf8) + [4])
        #expect(Array(encoded[5..<37]) == record.result.bytes)
        #expect(encoded[37] == 0)
    }

    @Test func aRecordHoldingItsResultReadsItBackNamesNoBlobForItAndRefusesItDamaged() {
        let encoded = Data("TGRS result bytes".utf8)
        var holding = record
        holding.result = .sha256(of: encoded)
        holding.inlineResult = encoded
        let bytes = ActionRecordCoder.encode(holding)
        #expect(Array(bytes[5..<37]) == holding.result.bytes)
        #expect(Array(bytes[37..<46]) == [1, 0, 0, 0, 0, 0, 0, 0, UInt8(encoded.count)])
        #expect(ActionRecordCoder.decode(bytes)?.inlineResult == encoded)
        #expect(ActionRecordCoder.decode(bytes) == holding)
        #expect(holding.blobs == [record.outputFiles[0].digest])
        #expect(bytes.withUnsafeBytes { ActionRecordCoder.blobNames(in: $0) } == holding.blobs.map(EntryName.init))
        for count in 0..<bytes.count {
            #expect(ActionRecordCoder.decode(bytes.prefix(count)) == nil, "prefix of \(count) bytes")
        }
        var damaged = bytes
        damaged[46] ^= 1
        #expect(ActionRecordCoder.decode(damaged) == nil)
    }

    @Test func aRecordHoldingAnOutputFileReadsItBackNamesNoBlobForItAndRefusesItDamaged() {
        let contents = Data("12 bytes\n".utf8)
        let held = ActionRecord.OutputFile(path: "/out/count.txt", digest: .sha256(of: contents), contents: contents)
        let holding = sampleRecord(result: record.result, file: held)
        let bytes = ActionRecordCoder.encode(holding)
        #expect(ActionRecordCoder.decode(bytes) == holding)
        #expect(ActionRecordCoder.decode(bytes)?.outputFiles[0].contents == contents)
        #expect(holding.blobs == [record.result])
        #expect(bytes.withUnsafeBytes { ActionRecordCoder.blobNames(in: $0) } == [EntryName(record.result)])
        let start = bytes.firstRange(of: contents)!.lowerBound
        // The digest, the flag 1 and the byte count come before the bytes.
        #expect(Array(bytes[(start - 41)..<(start - 9)]) == held.digest.bytes)
        #expect(Array(bytes[(start - 9)..<start]) == [1, 0, 0, 0, 0, 0, 0, 0, UInt8(contents.count)])
        for count in 0..<bytes.count {
            #expect(ActionRecordCoder.decode(bytes.prefix(count)) == nil, "prefix of \(count) bytes")
        }
        var damaged = bytes
        damaged[start] ^= 1
        #expect(ActionRecordCoder.decode(damaged) == nil)
        #expect(damaged.withUnsafeBytes { ActionRecordCoder.blobNames(in: $0) } == nil)
    }

    @Test func everyTruncatedOrExtendedCopyIsRefused() {
        let encoded = ActionRecordCoder.encode(record)
        for count in 0..<encoded.count {
            #expect(ActionRecordCoder.decode(encoded.prefix(count)) == nil, "prefix of \(count) bytes")
        }
        #expect(ActionRecordCoder.decode(encoded + [0]) == nil)
    }

    @Test func blobNamesAreReadWithoutDecodingAndRefuseWhatDecodingRefuses() {
        let encoded = ActionRecordCoder.encode(record)
        #expect(encoded.withUnsafeBytes { ActionRecordCoder.blobNames(in: $0) } == record.blobs.map(EntryName.init))
        for count in 0..<encoded.count {
            #expect(encoded.prefix(count).withUnsafeBytes { ActionRecordCoder.blobNames(in: $0) } == nil)
        }
        let shared = sampleRecord(result: record.result, file: .init(path: "/out/same", digest: record.result))
        #expect(
            ActionRecordCoder.encode(shared).withUnsafeBytes { ActionRecordCoder.blobNames(in: $0) } == [
                EntryName(record.result)
            ])
    }

    @Test func aHugeCountIsRefusedWithoutReserving() {
        var encoded = ActionRecordCoder.encode(sampleRecord(result: record.result))
        // The output file count follows the id; set it to 0xffffffff.
        let countOffset = encoded.firstRange(of: Data("tilt[lake]".utf8))!.upperBound
        encoded.replaceSubrange(countOffset..<(countOffset + 4), with: [0xff, 0xff, 0xff, 0xff])
        #expect(ActionRecordCoder.decode(encoded) == nil)
    }
}
