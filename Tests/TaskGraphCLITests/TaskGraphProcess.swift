import Foundation
import TestSupport
import Testing

/// The built `taskgraph` binary, run as a real process with its output captured in files.
final class TaskGraphProcess: @unchecked Sendable {
    // @unchecked: `process` is configured before `run()` and afterwards only read through
    // Foundation's thread-safe accessors (processIdentifier, isRunning, terminationStatus); the
    // paths are immutable.
    private let process = Process()
    private let stdoutPath: String
    private let stderrPath: String
    /// The process's output files and default cache, removed with this object.
    private let scratch: URL
    private let exit: AsyncStream<Termination>

    /// The directory holding the binary: the products directory the tests were built into.
    static var binary: URL {
        if let override = ProcessInfo.processInfo.environment["TASKGRAPH_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("taskgraph")
            }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("taskgraph")
    }

    /// Starts `taskgraph arguments…` in `directory`.
    /// - Parameters:
    ///   - environment: added to (or, with a nil value, removed from) the test's own.
    ///   - input: what the process reads from standard input (default: nothing, /dev/null).
    init(
        _ arguments: [String], in directory: URL, environment: [String: String?] = [:], executable: URL? = nil,
        input: Pipe? = nil
    ) throws {
        let scratch = try ScratchDirectories.make("taskgraph-cli")
        self.scratch = scratch
        stdoutPath = scratch.appendingPathComponent("stdout").path
        stderrPath = scratch.appendingPathComponent("stderr").path
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = executable ?? Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var fullEnvironment = ProcessInfo.processInfo.environment
        fullEnvironment["NO_COLOR"] = "1"
        // Each process gets a cache of its own unless the test shares one on purpose.
        fullEnvironment["TASKGRAPH_CACHE_DIR"] = scratch.appendingPathComponent("cache").path
        for (name, value) in environment { fullEnvironment[name] = value }
        process.environment = fullEnvironment
        process.standardInput = input ?? FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        let (stream, continuation) = AsyncStream<Termination>.makeStream()
        exit = stream
        process.terminationHandler = { process in
            continuation.yield(Termination(process))
            continuation.finish()
        }
        try process.run()
    }

    deinit {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// Whether the process has not exited yet.
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Sends `signal` to the process's whole process group, as a terminal does on Ctrl-C: the
    /// process is started as the leader of a group of its own, which its children join.
    func sendToGroup(_ signal: Int32) {
        kill(-process.processIdentifier, signal)
    }

    /// Whether the process catches or ignores `signal` yet (from /proc: its handlers are
    /// installed a few milliseconds after the start).
    func catches(_ signal: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let masks = status.split(separator: "\n").filter { $0.hasPrefix("SigCgt:") || $0.hasPrefix("SigIgn:") }
            .compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
        return masks.contains { $0 & (1 << UInt64(signal - 1)) != 0 }
    }

    /// Waits for the exit status; if a signal killed the process, minus the signal's number (as
    /// Python's subprocess reports it).
    func waitForExit() async -> Int32 {
        switch await waitForTermination() {
        case .exited(let status): status
        case .killed(by: let signal): -signal
        }
    }

    /// Waits until the process ends and tells how.
    func waitForTermination() async -> Termination {
        var termination: Termination?
        for await ending in exit {
            termination = ending
            break
        }
        // Returns at once (the process has exited). Foundation's Process on Linux keeps a run
        // loop source that retains the process until `waitUntilExit` drops it; without this call
        // every Process leaks (LeakSanitizer, scripts/sanitize.sh address).
        process.waitUntilExit()
        return termination ?? Termination(process)
    }

    /// What the process wrote to standard output so far.
    var standardOutput: String { Self.contents(ofFile: stdoutPath) }
    /// What the process wrote to standard error so far.
    var standardError: String { Self.contents(ofFile: stderrPath) }

    /// The text in the file at `path`, or "" if it cannot be read.
    ///
    /// Read through FileHandle: `String(contentsOfFile:)` and `Data(contentsOf:)` leak a 4 KiB
    /// buffer for every empty file on Linux (swift-foundation's zero-size read path), which
    /// LeakSanitizer reports (scripts/sanitize.sh address).
    private static func contents(ofFile path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let data = (try? handle.readToEnd()) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts `taskgraph arguments` (one shell word string) under script(1), as on a terminal 100
    /// columns wide with colours; what the terminal receives goes to `typescript` in `directory`.
    static func onTerminal(_ arguments: String, in directory: URL) throws -> TaskGraphProcess {
        try TaskGraphProcess(
            ["-qec", "\(binary.path) \(arguments)", "typescript"], in: directory,
            environment: ["NO_COLOR": nil, "TERM": "xterm-256color", "COLUMNS": "100"],
            executable: URL(fileURLWithPath: "/usr/bin/script"))
    }

    /// Runs `taskgraph arguments` under script(1) to completion (`onTerminal`): its status and
    /// what the terminal received.
    static func runOnTerminal(_ arguments: String, in directory: URL) async throws -> (status: Int32, screen: String) {
        let terminal = try onTerminal(arguments, in: directory)
        let status = await terminal.waitForExit()
        return (status, try String(contentsOf: directory.appendingPathComponent("typescript"), encoding: .utf8))
    }

    /// Runs `taskgraph arguments…` to completion.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String?] = [:], executable: URL? = nil
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try TaskGraphProcess(arguments, in: directory, environment: environment, executable: executable)
        let status = await process.waitForExit()
        return (status, process.standardOutput, process.standardError)
    }
}

/// A fresh temporary directory holding a copy of the fixture files named.
func fixtureDirectory(_ names: [String] = []) throws -> URL {
    let directory = try ScratchDirectories.make("taskgraph-fixture")
    guard let resources = Bundle.module.resourceURL else { throw CocoaError(.fileNoSuchFile) }
    let fixtures = resources.appendingPathComponent("Fixtures")
    for name in names {
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent(name), to: directory.appendingPathComponent(name))
    }
    return directory
}

/// Waits until `count` files named `prefix-*` exist in `directory` and returns the process ids
/// they hold.
func waitForFiles(_ prefix: String, count: Int, in directory: URL) async throws -> [Int32] {
    for _ in 0..<400 {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(prefix) }
        let pids = names.compactMap { name in
            (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        if pids.count == count { return pids }
        try await Task.sleep(for: .milliseconds(25))
    }
    Issue.record("timed out waiting for \(count) '\(prefix)' files")
    return []
}

/// The lines of the file `name` inside `directory` (none when it does not exist).
func lines(of name: String, in directory: URL) -> [Substring] {
    ((try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "").split(separator: "\n")
}

/// Writes `text` to `name` inside `directory`.
func write(_ text: String, to name: String, in directory: URL) throws {
    try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
}
