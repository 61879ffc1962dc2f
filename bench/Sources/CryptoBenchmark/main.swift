import Foundation
import TaskGraphCore
import TaskGraphCrypto

/// Decrypt throughput through the engine: `encrypt` seals MIB mebibytes once per cipher, then
/// `decrypt` opens them RUNS times; prints the best rate in MB/s (10^6 bytes per second), and
/// the rate of merely copying the same bytes into a new buffer, the memory floor any decrypt pays
/// (swift-crypto copies the input into its sealed box, then writes the plaintext).
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let mebibytes = arguments.first ?? 256
let runs = arguments.dropFirst().first ?? 5
let keyPath = NSTemporaryDirectory() + "taskgraph-crypto-bench.key"
try Data((0..<32).map { UInt8($0) }).write(to: URL(fileURLWithPath: keyPath))
let plaintext = Data((0..<(mebibytes << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })

/// Runs `source -> op` and returns the bytes `op` produced and the engine's wall time.
func run(_ operation: String, cipher: String, on input: Data) async throws -> (Data, Duration) {
    guard let type = OperationRegistry(CryptoOperations.types)[operation] else {
        fatalError("no operation '\(operation)'")
    }
    let setup = OperationSetup(
        type: operation, id: operation,
        parameters: Parameters(["key_file": .string(keyPath), "cipher": .string(cipher)]),
        pipelineDirectory: "/", outputDirectory: "/")
    var graph = ExecutionGraph()
    let source = try graph.add("source", action: ClosureAction { _ in BytesResult(input) })
    try graph.add(operation, type: operation, action: type.makeAction(setup), needs: [source])
    let start = ContinuousClock.now
    let report = await Engine().run(graph)
    let elapsed = ContinuousClock.now - start
    guard let output = report.finalResults[operation] as? any BytesProvider else {
        fatalError("\(operation) failed: \(report.nodes.map(\.outcome))")
    }
    return (try await output.data, elapsed)
}

/// `bytes` per `elapsed`, in MB/s.
func rate(_ bytes: Int, _ elapsed: Duration) -> Int {
    Int(Double(bytes) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / 1e6)
}

var bestCopy = Duration.seconds(1_000)
for _ in 0..<runs {
    let start = ContinuousClock.now
    let copy = Data(plaintext)
    bestCopy = min(bestCopy, ContinuousClock.now - start)
    precondition(copy.count == plaintext.count)
}
print("copy \(mebibytes) MiB into a new buffer: \(rate(plaintext.count, bestCopy)) MB/s")

for cipher in ["aes-256-gcm", "chacha20-poly1305"] {
    let (sealed, _) = try await run("encrypt", cipher: cipher, on: plaintext)
    var best = Duration.seconds(1_000)
    for _ in 0..<runs {
        let (opened, elapsed) = try await run("decrypt", cipher: cipher, on: sealed)
        precondition(opened == plaintext, "decrypt returned other bytes")
        best = min(best, elapsed)
    }
    print("decrypt \(cipher) \(mebibytes) MiB: \(rate(sealed.count, best)) MB/s")
}
