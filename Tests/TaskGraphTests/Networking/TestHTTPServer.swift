import Foundation

@testable import TaskGraph

/// The download tests' HTTP server (Fixtures/test_server.py), started once per test process on
/// 127.0.0.1 at an ephemeral port. It exits when this process does: it watches its stdin, whose
/// write end only this process holds.
final class TestHTTPServer: Sendable {
    /// Starts the server once, on a dedicated thread: waiting for Python to print its port must
    /// not block the cooperative pool that the other tests run on.
    private static let starting = Task { try await BlockingIO.run { try TestHTTPServer() } }

    /// The server every test shares (per-test routes keep their state apart).
    static func shared() async throws -> TestHTTPServer {
        try await starting.value
    }

    /// The port it listens on.
    let port: Int
    /// The write end of its stdin, kept open for the life of the test process.
    private let lifeline: FileHandle

    private init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/test_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
        lifeline = input.fileHandleForWriting
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
}

/// The bytes `/bytes/N` serves: `i % 251` for each position `i`.
func servedPattern(_ count: Int) -> Data {
    Data((0..<count).map { UInt8($0 % 251) })
}
