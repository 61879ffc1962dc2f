import Foundation

/// The tests' HTTP server (TaskGraphNetworkTests/Fixtures/test_server.py), a real server on
/// 127.0.0.1 at an ephemeral port, for both test targets. It exits when this object goes away or
/// the test process ends, whichever is first: it watches its stdin, whose write end only we hold.
public final class TestServerProcess: Sendable {
    /// The port it listens on.
    public let port: Int
    private let lifeline: FileHandle
    private let server: Process

    /// Starts a server; `/slow-file/MS/NAME` serves the files of `files`. Waits for its port on a
    /// Dispatch thread, never blocking the cooperative pool.
    public static func start(files: URL? = nil) async throws -> TestServerProcess {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try TestServerProcess(files: files) }) }
        }
    }

    private init(files: URL?) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../TaskGraphNetworkTests/Fixtures/test_server.py").standardizedFileURL
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", script.path] + (files.map { ["--files", $0.path] } ?? [])
        let input = Pipe()
        let output = Pipe()
        server.standardInput = input
        server.standardOutput = output
        try server.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
        lifeline = input.fileHandleForWriting
        self.server = server
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Waits for the exit too: Foundation's Process on Linux is only freed once `waitUntilExit`
    /// has run (LeakSanitizer, scripts/sanitize.sh address). The server exits at once.
    deinit {
        try? lifeline.close()
        server.waitUntilExit()
    }
}
