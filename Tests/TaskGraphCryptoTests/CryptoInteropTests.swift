import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore
@testable import TaskGraphCrypto

/// `decrypt` opens what Python's `cryptography` sealed (Fixtures/make_vectors.py), and Python
/// opens what `encrypt` sealed.
struct CryptoInteropTests {
    /// One sealed blob from the fixture.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // (Named as the fixture's keys are.)
    struct Vector: Decodable {
        var cipher: String
        var plaintext_hex: String
        var sealed_hex: String
    }

    /// The fixture file's contents.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // (Named as the fixture's keys are.)
    struct Vectors: Decodable {
        var key_hex: String
        var key_base64: String
        var cases: [Vector]
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func loadVectors() throws -> Vectors {
        try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: fixtures.appendingPathComponent("vectors.json")))
    }

    @Test(arguments: ["raw", "hex", "base64"])
    func decryptOpensPythonVectors(keyForm: String) async throws {
        let vectors = try Self.loadVectors()
        let directory = try makeScratchDirectory()
        let key: Data =
            switch keyForm {
            case "raw": Data(hex: vectors.key_hex)
            case "hex": Data((vectors.key_hex + "\n").utf8)
            default: Data((vectors.key_base64 + "\n").utf8)
            }
        try key.write(to: directory.appendingPathComponent("key"))
        #expect(vectors.cases.count == 6)
        for vector in vectors.cases {
            let result = try await runOperation(
                DecryptOperation.type, ["key_file": .string("key"), "cipher": .string(vector.cipher)],
                input: Data(hex: vector.sealed_hex), directory: directory.path)
            #expect(try await (result as? any BytesProvider)?.data == Data(hex: vector.plaintext_hex))
        }
    }

    @Test(arguments: AEADCipher.allCases)
    func pythonOpensWhatEncryptSealed(cipher: AEADCipher) async throws {
        let vectors = try Self.loadVectors()
        let directory = try makeScratchDirectory()
        try Data(hex: vectors.key_hex).write(to: directory.appendingPathComponent("key"))
        let plaintext = Data("sealed by taskgraph, opened by python\n".utf8)
        let result = try await runOperation(
            EncryptOperation.type, ["key_file": .string("key"), "cipher": .string(cipher.rawValue)],
            input: plaintext, directory: directory.path)
        let sealed = try await #require(result as? any BytesProvider).data
        let pythonClass = cipher == .aes256GCM ? "AESGCM" : "ChaCha20Poly1305"
        let script = """
            import sys
            from cryptography.hazmat.primitives.ciphers.aead import \(pythonClass)
            blob = bytes.fromhex(sys.argv[2])
            sys.stdout.write(\(pythonClass)(bytes.fromhex(sys.argv[1])).decrypt(blob[:12], blob[12:], None).decode())
            """
        let resources = RunResources()
        let python = try await resources.childProcesses.run(
            arguments: ["/usr/bin/env", "python3", "-c", script, vectors.key_hex, sealed.hex],
            environment: ProcessInfo.processInfo.environment, workingDirectory: nil)
        await resources.shutDown()
        #expect(python.status == .exited(0))
        #expect(Data(python.standardOutput) == plaintext)
    }
}
