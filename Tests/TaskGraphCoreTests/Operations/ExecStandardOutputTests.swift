import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// An `exec` result holds at most `ChildProcesses.defaultOutputLimit` bytes of standard output;
/// a program that writes more fails, never succeeds with its output cut short.
@Suite struct ExecStandardOutputTests {
    @Test func outputPastTheLimitFailsInsteadOfBeingTruncated() async throws {
        let bytes = ChildProcesses.defaultOutputLimit + 1
        do {
            _ = try await runOperation(
                ExecOperation.type, ["command": .list(["sh", "-c", "head -c \(bytes) /dev/zero"])],
                environment: ["PATH": "/usr/bin:/bin"])
            Issue.record("expected a failure")
        } catch let error as OperationError {
            #expect(
                error.description == "'sh' wrote more than 67.1 MB to standard output, the most an exec result "
                    + "holds; have it write a file named in 'outputs' instead")
        }
    }

    @Test func outputAtTheLimitIsKeptWhole() async throws {
        let bytes = ChildProcesses.defaultOutputLimit
        let output = try await runOperation(
            ExecOperation.type, ["command": .list(["sh", "-c", "head -c \(bytes) /dev/zero"])],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(try await (output as? any BytesProvider)?.data.count == bytes)
    }
}
