import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore
@testable import TaskGraphCrypto

/// `encrypt` and `decrypt`: round trips, key forms, and every failure with its exact message.
struct CryptoOperationTests {
    static let keyHex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

    /// A scratch directory holding `key` (the hex key above).
    private func directoryWithKey(_ contents: Data = Data(keyHex.utf8)) throws -> URL {
        let directory = try makeScratchDirectory()
        try contents.write(to: directory.appendingPathComponent("key"))
        return directory
    }

    private func seal(_ plaintext: Data, cipher: AEADCipher = .aes256GCM, in directory: URL) async throws -> Data {
        let result = try await runOperation(
            EncryptOperation.type, ["key_file": .string("key"), "cipher": .string(cipher.rawValue)],
            input: plaintext, directory: directory.path)
        return try await #require(result as? any BytesProvider).data
    }

    private func open(_ sealed: Data, cipher: AEADCipher = .aes256GCM, in directory: URL) async throws -> Data {
        let result = try await runOperation(
            DecryptOperation.type, ["key_file": .string("key"), "cipher": .string(cipher.rawValue)],
            input: sealed, directory: directory.path)
        return try await #require(result as? any BytesProvider).data
    }

    /// The message of the `CryptoError` that `body` throws.
    private func failure(_ body: () async throws -> Data) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch let error as CryptoError {
            #expect(!error.isRetryable)
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test(arguments: AEADCipher.allCases)
    func roundTripsWithAFreshNonceEachTime(cipher: AEADCipher) async throws {
        let directory = try directoryWithKey()
        let plaintext = Data((0..<100_000).map { UInt8($0 % 256) })
        let first = try await seal(plaintext, cipher: cipher, in: directory)
        let second = try await seal(plaintext, cipher: cipher, in: directory)
        #expect(first.count == plaintext.count + 28)
        #expect(first.prefix(12) != second.prefix(12))
        #expect(try await open(first, cipher: cipher, in: directory) == plaintext)
        #expect(try await open(second, cipher: cipher, in: directory) == plaintext)
    }

    @Test func keyFromEnvironmentInHexOrBase64() async throws {
        let environment = [
            "TASKGRAPH_TEST_KEY_HEX": Self.keyHex,
            "TASKGRAPH_TEST_KEY_B64": Data(hex: Self.keyHex).base64EncodedString(),
        ]
        let directory = try directoryWithKey()
        let sealed = try await seal(Data("secret".utf8), in: directory)
        for name in environment.keys.sorted() {
            let result = try await runOperation(
                DecryptOperation.type, ["key_env": .string(name)], input: sealed, environment: environment)
            #expect(try await (result as? any BytesProvider)?.data == Data("secret".utf8))
        }
    }

    @Test func keyEnvReadsOnlyThePipelinesEnvironmentThroughTheSetup() async throws {
        let directory = try directoryWithKey()
        let sealed = try await seal(Data("secret".utf8), in: directory)
        try sealed.write(to: directory.appendingPathComponent("sealed.bin"))
        let graph = try plannedGraph(
            """
            version: 1
            operations:
              sealed: {op: load, path: sealed.bin}
              open: {op: decrypt, needs: sealed, key_env: TASKGRAPH_KEY}
            """, file: directory.path + "/p.yaml", environment: ["TASKGRAPH_KEY": Self.keyHex, "OTHER": "x"],
            registry: .crypto)
        let setup = try #require(graph.nodes[1].setup)
        #expect(setup.environment == ["TASKGRAPH_KEY": Self.keyHex])
        #expect(try await outputText(of: "open", runningGraph: graph) == "secret")

        let decoded = try JSONDecoder().decode(OperationSetup.self, from: setup.canonicalJSON())
        var remade = ExecutionGraph()
        let source = try remade.add("sealed", action: ClosureAction { _ in BytesResult(sealed) })
        try remade.add("open", action: OperationRegistry.crypto.makeAction(for: decoded), needs: [source])
        #expect(try await outputText(of: "open", runningGraph: remade) == "secret")

        // PATH is set in this process, but not in the pipeline's environment: it is not read.
        #expect(ProcessInfo.processInfo.environment["PATH"] != nil)
        let unset = await failure {
            let result = try await runOperation(DecryptOperation.type, ["key_env": .string("PATH")], input: sealed)
            return try await #require(result as? any BytesProvider).data
        }
        #expect(unset == "environment variable 'PATH' holding the key is not set")
    }

    @Test func wrongKeyAndEveryFlippedBitFailAuthentication() async throws {
        let directory = try directoryWithKey()
        let sealed = try await seal(Data("attack at dawn".utf8), in: directory)
        let otherKey = try directoryWithKey(Data(String(repeating: "ab", count: 32).utf8))
        #expect(
            await failure { try await open(sealed, in: otherKey) }
                == "authentication failed: wrong key or corrupted data")
        for bit in stride(from: 0, to: sealed.count * 8, by: 7) {
            var corrupted = sealed
            corrupted[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(
                await failure { try await open(corrupted, in: directory) }
                    == "authentication failed: wrong key or corrupted data")
        }
        #expect(
            await failure { try await open(sealed, cipher: .chaCha20Poly1305, in: directory) }
                == "authentication failed: wrong key or corrupted data")
    }

    @Test func inputShorterThanNonceAndTag() async throws {
        let directory = try directoryWithKey()
        #expect(
            await failure { try await open(Data(count: 27), in: directory) }
                == "input is 27 bytes, shorter than the 28 bytes of nonce and tag: not encrypted data")
    }

    @Test func missingKeyFileOrVariable() async throws {
        let directory = try makeScratchDirectory()
        #expect(
            await failure { try await open(Data(count: 40), in: directory) }
                == "cannot read key file '\(directory.path)/key': No such file or directory")
        let missing = await failure {
            let result = try await runOperation(
                DecryptOperation.type, ["key_env": .string("TASKGRAPH_TEST_UNSET")], input: Data(count: 40))
            return try await #require(result as? any BytesProvider).data
        }
        #expect(missing == "environment variable 'TASKGRAPH_TEST_UNSET' holding the key is not set")
    }

    @Test func keysOfTheWrongLengthNeverAppearInMessages() async throws {
        let shortHex = String(Self.keyHex.dropLast(2))
        let directory = try directoryWithKey(Data(shortHex.utf8))
        #expect(
            await failure { try await open(Data(count: 40), in: directory) }
                == "key file '\(directory.path)/key' must hold 32 raw bytes, 64 hex characters or base64 of 32 bytes; "
                + "it holds 62 bytes"
        )
        let raw = try directoryWithKey(Data(count: 31))
        #expect(
            await failure { try await open(Data(count: 40), in: raw) }
                == "key file '\(raw.path)/key' must hold 32 raw bytes, 64 hex characters or base64 of 32 bytes; it "
                + "holds 31 bytes"
        )
        let message = await failure {
            let result = try await runOperation(
                DecryptOperation.type, ["key_env": .string("TASKGRAPH_TEST_SHORT_KEY")], input: Data(count: 40),
                environment: ["TASKGRAPH_TEST_SHORT_KEY": shortHex])
            return try await #require(result as? any BytesProvider).data
        }
        #expect(
            message
                == "environment variable 'TASKGRAPH_TEST_SHORT_KEY' must hold 64 hex characters or base64 of 32 bytes; "
                + "it holds 62 bytes"
        )
    }

    @Test func validateRequiresExactlyOneKeySource() {
        let both = diagnostics(
            """
            version: 1
            operations:
              src: {op: load, path: data.bin}
              open: {op: decrypt, needs: src, key_file: k, key_env: K}
              seal: {op: encrypt, needs: src}
              odd: {op: decrypt, needs: src, key_env: K, cipher: rot13}
            """, registry: .crypto)
        #expect(
            both == [
                "test.yaml:4:14: error: operation 'open': set exactly one of 'key_file' and 'key_env'",
                "test.yaml:5:14: error: operation 'seal': set exactly one of 'key_file' and 'key_env'",
                "test.yaml:6:54: error: operation 'odd': 'cipher' must be one of aes-256-gcm, chacha20-poly1305, "
                    + "not 'rot13'",
            ])
    }
}
