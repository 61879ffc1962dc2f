import Foundation
import OperationTestSupport
import TaskGraphCore
import Testing

@testable import TaskGraphCrypto

/// What `encrypt` and `decrypt` add to their cache keys: the key file's digest, never the key.
/// A key from `key_env` is a declared variable, which the engine adds as a digest.
struct CryptoCachingTests {
    static let keyHex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

    @Test(arguments: [EncryptOperation.type, DecryptOperation.type])
    func aKeyFileEntersByDigest(type: OperationType) async throws {
        let directory = try makeScratchDirectory()
        try Data(Self.keyHex.utf8).write(to: directory.appendingPathComponent("secret.key"))
        let action = try #require(
            try makeOperationAction(
                type, ["key_file": .string("secret.key")], directory: directory.path) as? any CacheableAction)
        let key = try await addedKeyComponents(of: action)
        #expect(key.lines == ["file.secret.key=\(ContentDigest.sha256(of: Data(Self.keyHex.utf8)))"])
        #expect(!String(decoding: key.encoded, as: UTF8.self).contains(Self.keyHex))
        #expect(action.cacheVersion == 1)
        #expect(action.unkeyedParameters == [])
    }

    @Test(arguments: [EncryptOperation.type, DecryptOperation.type])
    func aKeyFromTheEnvironmentIsADeclaredVariable(type: OperationType) async throws {
        let parameters: [String: ParameterValue] = ["key_env": .string("PHOTO_KEY")]
        #expect(type.environmentNames(Parameters(parameters)) == ["PHOTO_KEY"])
        let action = try #require(
            try makeOperationAction(
                type, parameters, environment: ["PHOTO_KEY": Self.keyHex, "OTHER": "x"]) as? any CacheableAction)
        #expect(try await addedKeyComponents(of: action).lines == [])
    }

    @Test func everyKeyedParameterOfEveryCryptoTypeChangesTheKey() async throws {
        let directory = try makeScratchDirectory()
        for name in ["secret.key", "other.in", "another.in"] {
            try Data(Self.keyHex.utf8).write(to: directory.appendingPathComponent(name))
        }
        try Data("x".utf8).write(to: directory.appendingPathComponent("in.txt"))
        let base: [String: [String: ParameterValue]] = [
            "exec": ["command": .list(["sh"])], "load": ["path": .string("in.txt")],
            "save": ["path": .string("out.txt")],
            "encrypt": ["key_file": .string("secret.key")], "decrypt": ["key_file": .string("secret.key")],
        ]
        #expect(try await parametersLeavingTheKey(registry: .crypto, base: base, directory: directory.path) == [])
    }
}
