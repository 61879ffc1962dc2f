import Dispatch
import Foundation
import FuzzDriver
import TaskGraphCore
import TaskGraphCrypto

/// Decrypting any bytes must never crash, hang or exhaust memory: `decrypt` returns the plaintext
/// or fails with a `CryptoError` (too short, does not authenticate, malformed key).
///
/// Input layout: byte 0 picks the cipher (bit 0: ChaCha20-Poly1305 instead of AES-256-GCM) and
/// the key (bit 1: the key text is read from the input, up to the first newline, instead of the
/// fixed test key); the rest is the sealed data. The seeds in corpus/decrypt are real sealed
/// messages under the fixed key, so mutations start from data that authenticates.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzDecrypt(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = Data(UnsafeBufferPointer(start: bytes, count: count))
    guard let mode = input.first else { return 0 }
    var sealed = input.dropFirst()
    var key = fixedKey
    if mode & 2 != 0 {
        let line = sealed.prefix { $0 != UInt8(ascii: "\n") }
        key = String(decoding: line, as: UTF8.self)
        sealed = sealed.dropFirst(line.count + 1)
    }
    let cipher = mode & 1 != 0 ? "chacha20-poly1305" : "aes-256-gcm"
    let done = DispatchSemaphore(value: 0)
    Task.detached { [sealed = Data(sealed), key] in
        _ = try? await decrypt(sealed, cipher: cipher, key: key)
        done.signal()
    }
    done.wait()
    return 0
}

/// The key the seed messages were sealed with (64 hex characters).
private let fixedKey = String(repeating: "0123456789abcdef", count: 4)

/// Runs a real `decrypt` operation, as a pipeline would, on `sealed`, with `key` as the value of
/// the environment variable `key_env` names.
private func decrypt(_ sealed: Data, cipher: String, key: String) async throws {
    guard let type = OperationRegistry(CryptoOperations.types)["decrypt"] else {
        fatalError("decrypt is not registered")
    }
    let action = try type.makeAction(
        OperationSetup(
            type: "decrypt", id: "decrypt",
            parameters: Parameters(["key_env": .string("TASKGRAPH_FUZZ_KEY"), "cipher": .string(cipher)]),
            dependencies: ["sealed"], environment: ["TASKGRAPH_FUZZ_KEY": key],
            pipelineDirectory: "/nonexistent", outputDirectory: "/nonexistent/out"))
    var graph = ExecutionGraph()
    let source = try graph.add("sealed", action: ClosureAction { _ in BytesResult(sealed) })
    try graph.add("decrypt", type: "decrypt", action: action, needs: [source])
    _ = await Engine(options: EngineOptions(jobs: 1)).run(graph)
}

/// SwiftPM links executables with `main` aliased to `<module>_main`; hand control to libFuzzer.
@_cdecl("FuzzDecrypt_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc: argc, argv: argv) { bytes, size in fuzzDecrypt(bytes, size) }
}
