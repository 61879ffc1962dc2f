import Foundation
import OperationTestSupport
import Testing

@testable import TaskGraphCore

/// `load` reads regular files only, and at most `max_bytes`: a device grows without bound and a
/// FIFO without a writer blocks forever, past any timeout or signal.
@Suite struct LoadOperationTests {
    @Test func aDeviceIsRefusedWhenThePipelineIsValidated() {
        #expect(
            diagnostics(
                """
                version: 1
                operations:
                  z: {op: load, path: /dev/zero}
                """) == ["test.yaml:3:11: error: operation 'z': cannot read '/dev/zero': not a regular file (a device)"]
        )
    }

    @Test func aFIFOMadeAfterValidationIsRefusedWhenReadWithoutBlocking() async throws {
        let directory = try makeScratchDirectory().path
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        let load = LoadOperation(path: directory + "/fifo", writtenPath: "fifo")
        do {
            _ = try await load.run(in: TaskContext(id: "load"))
            Issue.record("expected a failure")
        } catch let error as OperationError {
            #expect(error.description == "cannot read '\(directory)/fifo': not a regular file (a FIFO)")
        }
    }

    @Test func aFileLargerThanMaxBytesFails() async throws {
        let directory = try makeScratchDirectory()
        try Data(count: 1000).write(to: directory.appendingPathComponent("big.bin"))
        do {
            _ = try await runOperation(
                LoadOperation.type, ["path": .string("big.bin"), "max_bytes": .integer(999)], directory: directory.path)
            Issue.record("expected a failure")
        } catch let error as OperationError {
            #expect(
                error.description == "cannot read '\(directory.path)/big.bin': it is larger than max_bytes (999 bytes)")
        }
        let loaded = try await runOperation(
            LoadOperation.type, ["path": .string("big.bin"), "max_bytes": .integer(1000)], directory: directory.path)
        #expect((loaded as? LoadedFile)?.data.count == 1000)
    }

    @Test func aDirectoryIsNamedAsOne() async throws {
        let directory = try makeScratchDirectory().path
        #expect(throws: FileError.readFailed(path: directory, reason: "Is a directory")) {
            try FileIO.read(directory)
        }
    }
}
