import Foundation
import OperationTestSupport
import TaskGraphCore
import TaskGraphCrypto
import Testing

/// `Decrypt` and `Encrypt`: keyed as the same operations in a pipeline file, with a key from a
/// file or from the environment.
struct TypedCryptoOperationTests {
    @Test func eachTypedOperationIsKeyedAsTheSameOperationInAPipelineFile() async throws {
        let directory = try makeScratchDirectory().path
        try Data(repeating: 7, count: 32).write(to: URL(fileURLWithPath: directory + "/secret.key"))
        let environment = ["PHOTO_KEY": String(repeating: "ab", count: 32)]
        var graph = ExecutionGraph()
        let sealed = try graph.add("sealed", action: Load(path: "secret.key", directory: directory))
        try graph.add("open", action: Decrypt(key: .file("secret.key", directory: directory)), needs: [sealed])
        try graph.add(
            "seal", action: Encrypt(key: .environment("PHOTO_KEY", in: environment), cipher: .chaCha20Poly1305),
            needs: [sealed])
        let text = """
            version: 1
            name: chain
            operations:
              sealed: {op: load, path: secret.key}
              open: {op: decrypt, needs: sealed, key_file: secret.key}
              seal: {op: encrypt, needs: sealed, key_env: PHOTO_KEY, cipher: chacha20-poly1305}
            """
        let planned = try plannedGraph(text, in: directory, registry: .crypto, environment: environment)
        let typedKeys = try await keys(of: graph)
        #expect(typedKeys.count == 3)
        #expect(typedKeys == (try await keys(of: planned)))
    }
}
