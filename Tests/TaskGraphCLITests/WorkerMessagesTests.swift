import Foundation
import Testing

/// What a Slurm job's log shows when `taskgraph worker` fails: its message, every time (it used
/// to be lost about half the time, the process exiting before its output queue was written).
@Suite struct WorkerMessagesTests {
    @Test func aWorkerThatFailsAlwaysSaysWhy() async throws {
        let directory = try fixtureDirectory()
        for _ in 0..<10 {
            let result = try await TaskGraphProcess.run(["worker", "--store", "store", "missing.job"], in: directory)
            #expect(result.status == 1)
            #expect(
                result.stderr.hasPrefix("taskgraph: error: cannot read the job file missing.job: "), "\(result.stderr)")
        }
    }
}
