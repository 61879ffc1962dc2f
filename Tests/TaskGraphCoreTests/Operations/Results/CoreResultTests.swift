import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// The serialised forms and digests of the core's results. The digests and encodings are
/// written out literally: they are a wire format (docs/results.md) and must never change.
@Suite struct CoreResultTests {
    @Test func emptyHasAnEmptyPayload() async throws {
        let trip = try await roundTrip(EmptyResult(), through: .core)
        #expect(trip.payload.isEmpty)
        #expect(trip.encoded.hex == "54475253010000000000000005656d7074790000000000000000")
        #expect(trip.decoded == EmptyResult())
        #expect(trip.fromRegistry as? EmptyResult == EmptyResult())
        #expect(trip.digest.description == "sha256:290e3bbf7f579d0f5335096a138484b78a98b0c306b476b2be17e35457f30395")
        #expect(trip.digest == trip.digestOfEncoding)
        #expect(throws: ResultCodingError.trailingBytes(subject: "'empty' result", count: 1)) {
            try EmptyResult(serialized: Data([0]))
        }
    }

    @Test func bytesArePayloadAsTheyAre() async throws {
        let value = BytesResult(Data("hello".utf8))
        let trip = try await roundTrip(value, through: .core)
        #expect(trip.payload == Data("hello".utf8))
        #expect(trip.encoded.hex == "544752530100000000000000056279746573000000000000000568656c6c6f")
        #expect(trip.decoded == value)
        #expect(trip.fromRegistry as? BytesResult == value)
        #expect(trip.digest.description == "sha256:11cc88ffad4e4f6be3114fe89623ea8c64e823056fbfd1ce6bf89e615a9c4eba")
        #expect(trip.digest == trip.digestOfEncoding)
        let empty = try await roundTrip(BytesResult(Data()), through: .core)
        #expect(empty.decoded == BytesResult(Data()))
    }

    @Test func loadedFileKeepsItsPathInUTF8() async throws {
        let value = LoadedFile(path: "photos/café.jpg", data: Data([0, 1, 2, 255]))
        let trip = try await roundTrip(value, through: .core)
        #expect(trip.payload.hex == "01000000000000001070686f746f732f636166c3a92e6a70670000000000000004000102ff")
        #expect(trip.decoded == value)
        #expect(trip.fromRegistry as? LoadedFile == value)
        #expect(trip.digest.description == "sha256:9674b4d3bf6ed69219576d9974ac446b315dfc72e594e11ebfddf0e625bc99de")
        #expect(trip.digest == trip.digestOfEncoding)
    }

    @Test func fileProvidersMoveEveryPathTheyNameAndKeepTheRest() {
        func moved<File: FileProvider>(_ file: File) -> File {
            file.withPaths { "/elsewhere/" + $0 }
        }
        #expect(
            moved(WrittenFile(path: "out/lake.jpg", byteCount: 7))
                == WrittenFile(path: "/elsewhere/out/lake.jpg", byteCount: 7))
        #expect(
            moved(LoadedFile(path: "photos/lake.jpg", data: Data([1, 2])))
                == LoadedFile(path: "/elsewhere/photos/lake.jpg", data: Data([1, 2])))
        #expect(BytesResult(Data([3])).withPaths { _ in "/never" } == BytesResult(Data([3])))
    }

    @Test func writtenFileKeepsItsByteCount() async throws {
        let value = WrittenFile(path: "out/lake.jpg", byteCount: 123_456)
        let trip = try await roundTrip(value, through: .core)
        #expect(trip.payload.hex == "01000000000000000c6f75742f6c616b652e6a7067000000000001e240")
        #expect(trip.decoded == value)
        #expect(trip.fromRegistry as? WrittenFile == value)
        #expect(trip.digest.description == "sha256:432869c3bcf5ae94a2e9bfdfffaa28b88a9e78fa0f94cbe76be471add90c25e1")
        #expect(trip.digest == trip.digestOfEncoding)
        #expect(
            throws: ResultCodingError.unrepresentable(
                subject: "'file.written' result", reason: "byte count -1 is negative")
        ) {
            try WrittenFile(path: "x", byteCount: -1).serialized()
        }
    }

    @Test func processOutputKeepsHowTheProgramEnded() async throws {
        let cases: [(ProcessOutput, payload: String, digest: String)] = [
            (
                ProcessOutput(data: Data("hi\n".utf8), status: .exited(3), standardErrorTail: "oops\n"),
                "02000000000300000000000000056f6f70730a000000000000000368690a00000000",
                "sha256:36ff0d4cc2298beb3e92a324959c69a70cf7551fe62e933470ad8eca6f8a44c5"
            ),
            (
                ProcessOutput(data: Data(), status: .signalled(9), standardErrorTail: ""),
                "0201000000090000000000000000000000000000000000000000",
                "sha256:a645e40e57c2059483931d63abfc99f9e92f4b9f5a1b3e37bc3999b48ca720d9"
            ),
            (
                ProcessOutput(data: Data([0]), status: .exited(-1), standardErrorTail: "é"),
                "0200ffffffff0000000000000002c3a900000000000000010000000000",
                "sha256:35b315bade4e4e8c0abdbb9a6f372e51794c58dce3202d9d11ab77e7a27b2481"
            ),
            (
                ProcessOutput(
                    data: Data(), status: .exited(0), standardErrorTail: "",
                    files: [
                        .init(path: "o/a.txt", digest: ContentDigest.sha256(of: Data("a".utf8)))
                    ]),
                "02000000000000000000000000000000000000000000000000010000000000000007"
                    + "6f2f612e747874"
                    + ContentDigest.sha256(of: Data("a".utf8)).bytes.map { String(format: "%02x", $0) }.joined(),
                ""
            ),
        ]
        for (value, payload, digest) in cases {
            let trip = try await roundTrip(value, through: .core)
            #expect(trip.payload.hex == payload)
            #expect(trip.decoded == value)
            #expect(trip.fromRegistry as? ProcessOutput == value)
            if !digest.isEmpty { #expect(trip.digest.description == digest) }
            #expect(trip.digest == trip.digestOfEncoding)
        }
        #expect(cases[0].0.summary == "exited with status 3, 3 B of output")
        #expect(cases[3].0.summary == "exited with status 0, 0 B of output, 1 file")
        #expect(cases[1].0.statusText == "was killed by signal 9")
    }

    @Test func execResultsRoundTrip() async throws {
        let output = try await runOperation(
            ExecOperation.type, ["command": .list(["sh", "-c", "printf out; printf err >&2"])])
        let value = try #require(output as? ProcessOutput)
        #expect(value.status == .exited(0))
        #expect(value.standardErrorTail == "err")
        let trip = try await roundTrip(value, through: .core)
        #expect(trip.fromRegistry as? ProcessOutput == value)
    }

    @Test func everyTruncationOrExtraByteIsAnError() async throws {
        let values: [any OperationResult] = [
            EmptyResult(), BytesResult(Data("hello".utf8)), LoadedFile(path: "a", data: Data([1, 2])),
            WrittenFile(path: "b", byteCount: 7),
            ProcessOutput(data: Data("x".utf8), status: .signalled(15), standardErrorTail: "y"),
        ]
        for value in values {
            let encoded = try await SerializedResult(of: value).encoded
            let failures = decodingFailures(of: damagedCopies(of: encoded), through: .core)
            #expect(failures.count == encoded.count + 1)
            #expect(!failures.contains { $0 == "decoded" || $0.hasPrefix("unexpected") }, "\(failures)")
        }
    }

    @Test func everyFlippedByteReadsOrFailsWithAResultError() async throws {
        let values: [any OperationResult] = [
            EmptyResult(), LoadedFile(path: "a", data: Data([1, 2])), WrittenFile(path: "b", byteCount: 7),
            ProcessOutput(data: Data("x".utf8), status: .exited(1), standardErrorTail: "y"),
        ]
        for value in values {
            let encoded = try await SerializedResult(of: value).encoded
            let failures = decodingFailures(of: flippedCopies(of: encoded), through: .core)
            #expect(!failures.contains { $0.hasPrefix("unexpected") }, "\(failures)")
        }
    }

    @Test func damagedEncodingsSayWhatIsWrong() async throws {
        let encoded = try await SerializedResult(of: LoadedFile(path: "a", data: Data([1, 2]))).encoded
        #expect(
            decodingFailures(of: [Data(), Data("GIF89a".utf8), encoded.prefix(20), encoded + [0]], through: .core) == [
                "serialised result does not start with 'TGRS'",
                "serialised result does not start with 'TGRS'",
                "truncated serialised result: kind needs 11 bytes at offset 13, only 7 remain",
                "serialised result has 1 unexpected bytes after its last field",
            ])
        var newer = encoded
        newer[4] = 2
        #expect(
            decodingFailures(of: [newer], through: .core) == [
                "serialised result has layout version 2; this build reads version 1"
            ])
    }

    @Test func damagedPayloadsSayWhatIsWrong() throws {
        func failure(_ kind: String, _ payload: [UInt8]) -> String {
            decodingFailures(of: [try! SerializedResult(kind: kind, payload: Data(payload)).encoded], through: .core)[0]
        }
        #expect(
            failure("file.loaded", [1, 0, 0, 0, 0, 0, 0, 0, 5, 0x61])
                == "truncated 'file.loaded' result: path needs 5 bytes at offset 9, only 1 remain")
        #expect(
            failure("file.loaded", [1, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0, 0, 0, 0, 0, 0, 0, 0])
                == "invalid 'file.loaded' result: path is not valid UTF-8")
        #expect(failure("file.loaded", [3]) == "'file.loaded' result has layout version 3; this build reads version 1")
        #expect(
            failure("file.written", [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
                == "truncated 'file.written' result: byte count needs 8 bytes at offset 9, only 3 remain")
        #expect(
            failure("process.output", [2, 2, 0, 0, 0, 0])
                == "invalid 'process.output' result: status is 2, not 0 (exited) or 1 (signalled)")
        #expect(
            failure("process.output", [])
                == "truncated 'process.output' result: version needs 1 bytes at offset 0, only 0 remain")
        #expect(
            failure("image.decoded", [])
                == "unknown result kind 'image.decoded'; known kinds: bytes, empty, file.loaded, file.written, "
                + "process.output, result.unstored, stored-reference"
        )
    }

    @Test func kindNamesAreChecked() async throws {
        #expect(throws: ResultCodingError.invalidKindName("Bytes")) {
            try SerializedResult(kind: "Bytes", payload: Data())
        }
        #expect(throws: ResultCodingError.invalidKindName("")) { try SerializedResult(kind: "", payload: Data()) }
        #expect(throws: ResultCodingError.invalidKindName(String(repeating: "a", count: 65))) {
            try SerializedResult(kind: String(repeating: "a", count: 65), payload: Data())
        }
        #expect(try SerializedResult(kind: "a.b-c_9", payload: Data()).kind == "a.b-c_9")
        #expect(
            ResultCodingError.invalidKindName("Bytes").description
                == "'Bytes' is not a result kind name (1 to 64 of a-z, 0-9, '.', '-', '_')")
    }

    @Test func aStoreThatKnowsTheTypeReadsItDirectly() async throws {
        let stored = try await SerializedResult(of: LoadedFile(path: "a", data: Data([1])))
        #expect(try stored.decode(as: LoadedFile.self) == LoadedFile(path: "a", data: Data([1])))
        #expect(throws: ResultCodingError.kindMismatch(expected: "bytes", found: "file.loaded")) {
            try stored.decode(as: BytesResult.self)
        }
        #expect(
            ResultCodingError.kindMismatch(expected: "bytes", found: "file.loaded").description
                == "expected a 'bytes' result, found 'file.loaded'")
    }

    @Test func theCoreRegistryKnowsEveryCoreResult() {
        #expect(
            ResultRegistry.core.names == [
                "bytes", "empty", "file.loaded", "file.written", "process.output", "result.unstored",
                "stored-reference",
            ])
        #expect(ResultRegistry.core["bytes"].map { ObjectIdentifier($0.type) } == ObjectIdentifier(BytesResult.self))
        // A fused chain's intermediate is recorded as one (docs/cluster.md, "Fusion").
        #expect(
            ResultRegistry.core["stored-reference"].map { ObjectIdentifier($0.type) }
                == ObjectIdentifier(StoredResult.self))
        #expect(ResultRegistry()["bytes"] == nil)
    }
}
