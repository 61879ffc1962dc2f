import Foundation
import Testing

/// Headless Chromium (Debian's `chromium`, installed by `scripts/setup.sh --browser`), run as a
/// real process to load a page from a file: the DOM after its scripts ran, or a screenshot.
/// Missing, it fails the test with a message saying how to install it, never skips it.
struct HeadlessBrowser {
    /// Why no browser could be used.
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "no headless browser: install Debian's chromium (scripts/setup.sh --browser, or apt-get install chromium) "
                + "or name one in TASKGRAPH_CHROMIUM"
        }
    }

    let executable: URL

    /// `$TASKGRAPH_CHROMIUM`, else `chromium` or `chromium-browser` on the PATH.
    init() throws {
        let environment = ProcessInfo.processInfo.environment
        let candidates =
            [environment["TASKGRAPH_CHROMIUM"]].compactMap { $0 }
            + (environment["PATH"] ?? "/usr/bin").split(separator: ":").flatMap { directory in
                ["chromium", "chromium-browser"].map { "\(directory)/\($0)" }
            }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Missing()
        }
        executable = URL(fileURLWithPath: found)
    }

    /// The page's DOM once its scripts have run (`--dump-dom`).
    func dom(of page: URL) async throws -> String {
        try await run(["--dump-dom", page.absoluteString]).stdout
    }

    /// A PNG screenshot of the page in a `width`×`height` window, written to `file`.
    func screenshot(of page: URL, to file: URL, width: Int = 1280, height: Int = 900) async throws {
        let result = try await run([
            "--hide-scrollbars", "--screenshot=\(file.path)", "--window-size=\(width),\(height)", page.absoluteString,
        ])
        #expect(FileManager.default.fileExists(atPath: file.path), "no screenshot: \(result.stderr.suffix(2000))")
    }

    private func run(_ arguments: [String]) async throws -> (stdout: String, stderr: String) {
        // A profile of its own: concurrent tests' browsers must not share (and lock) one.
        let profile = try fixtureDirectory()
        let result = try await TaskGraphProcess.run(
            ["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--user-data-dir=\(profile.path)"]
                + arguments,
            in: profile, executable: executable)
        #expect(result.status == 0, "chromium exited with \(result.status): \(result.stderr.suffix(2000))")
        return (result.stdout, result.stderr)
    }
}
