import Foundation
import TestSupport

/// The download tests' HTTP server: one `TestServerProcess` per test process, started on first
/// use and shared by every test (per-test routes keep their state apart).
enum TestHTTPServer {
    private static let starting = Task { try await TestServerProcess.start() }

    /// The server every test shares.
    static func shared() async throws -> TestServerProcess {
        try await starting.value
    }
}

/// The bytes `/bytes/N` serves: `i % 251` for each position `i`.
func servedPattern(_ count: Int) -> Data {
    Data((0..<count).map { UInt8($0 % 251) })
}
