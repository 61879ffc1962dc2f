import Foundation
import TaskGraphCore
import Testing

@testable import TaskGraphBasics

/// A child's standard input, written by the reaper thread (`InputFeeder`), and its output shown
/// to an observer as it is read; real processes.
struct InputFeederTests {
    private let resources = RunResources()

    private func run(_ arguments: [String], input: Data?, observer: ChildProcesses.OutputObserver? = nil) async throws
        -> ProcessResult
    {
        try await resources.childProcesses.run(
            arguments: arguments, environment: ["PATH": "/usr/bin:/bin"], workingDirectory: nil,
            standardInput: input, observer: observer)
    }

    @Test func theChildReadsTheBytesThenEndOfFile() async throws {
        let result = try await run(["cat"], input: Data("one\ntwo\n".utf8))
        #expect(result.status == .exited(0))
        #expect(result.standardOutput == Array("one\ntwo\n".utf8))
        let empty = try await run(["wc", "-c"], input: Data())
        #expect(String(decoding: empty.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespaces) == "0\n")
    }

    /// Megabytes each way: the child writes its output before reading its input, so neither
    /// side can finish first; nothing waits on a full pipe.
    @Test func megabytesEachWayWithoutDeadlock() async throws {
        let input = Data(repeating: UInt8(ascii: "i"), count: 6 << 20)
        let result = try await run(
            ["sh", "-c", "head -c 3000000 /dev/zero; wc -c >&2"], input: input)
        #expect(result.status == .exited(0))
        #expect(result.standardOutput.count == 3_000_000)
        #expect(String(decoding: result.standardErrorTail, as: UTF8.self) == "6291456\n")
    }

    /// A child that exits without reading: the write fails with EPIPE on the reaper thread
    /// (SIGPIPE is blocked there), and the process goes on.
    @Test func aChildThatReadsNothingEndsNormally() async throws {
        let result = try await run(["true"], input: Data(repeating: 0, count: 4 << 20))
        #expect(result.status == .exited(0))
        let again = try await run(["cat"], input: Data("after\n".utf8))
        #expect(again.standardOutput == Array("after\n".utf8))
    }

    @Test func theObserverSeesEachStreamsBytesInOrder() async throws {
        let seen = Locked<[OutputLine.Stream: [UInt8]]>([:])
        let result = try await run(["sh", "-c", "cat; echo err >&2"], input: Data("in\n".utf8)) { stream, chunk in
            seen.withLock { $0[stream, default: []] += chunk }
        }
        #expect(result.status == .exited(0))
        #expect(seen.withLock { $0 } == [.standardOutput: Array("in\n".utf8), .standardError: Array("err\n".utf8)])
    }
}
