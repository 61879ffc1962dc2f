import Foundation
import Testing

/// A CI-sized run of scripts/cache-torture.py (20 rounds or more by hand): `kill -9` at random
/// moments during runs against one store never leads to a false hit.
@Suite struct CacheTortureTests {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/cache-torture.py").standardizedFileURL

    @Test func killedRunsNeverLeadToAFalseHit() async throws {
        let (status, output) = try await runPython([
            Self.script.path, "--binary", TaskGraphProcess.binary.path, "--rounds", "3",
        ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("cache-torture: 3 rounds, 3 passed, 0 failed"), "\(output)")
    }
}

/// Runs `python3 arguments…` to its end on a Dispatch thread (never blocking the cooperative
/// pool); returns its exit status and everything it printed.
func runPython(_ arguments: [String]) async throws -> (status: Int32, output: String) {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(
                with: Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                    process.arguments = ["python3"] + arguments
                    let output = Pipe()
                    process.standardOutput = output
                    process.standardError = output
                    process.standardInput = FileHandle.nullDevice
                    try process.run()
                    let text = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    return (process.terminationStatus, String(decoding: text, as: UTF8.self))
                })
        }
    }
}
