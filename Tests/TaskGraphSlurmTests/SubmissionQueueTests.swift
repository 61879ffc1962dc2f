import TaskGraphCore
import Testing

@testable import TaskGraphSlurm

@Suite struct SubmissionQueueTests {
    @Test func theSubmitterTakesTheRequestsQueuedAndAClosedQueueFailsLaterOnes() async throws {
        let queue = SubmissionQueue()
        let submitter = Task { await queue.take() }
        async let first = withCheckedThrowingContinuation { continuation in
            queue.add(
                SubmissionQueue.Request(
                    name: "job-1", reference: "/jobs/job-1.job", options: ["--mem=1G"], continuation: continuation))
        }
        let taken = await submitter.value
        #expect(taken.map(\.name) == ["job-1"])
        #expect(taken.map(\.options) == [["--mem=1G"]])
        taken.first?.continuation.resume(returning: (id: "65", log: "/jobs/job-1.log"))
        let submitted = try await first
        #expect(submitted.id == "65" && submitted.log == "/jobs/job-1.log")
        queue.close()
        await #expect(throws: CancellationError.self) {
            try await withCheckedThrowingContinuation { continuation in
                queue.add(
                    SubmissionQueue.Request(
                        name: "job-2", reference: "/jobs/job-2.job", options: [], continuation: continuation))
            }
        }
    }

    @Test func aCancelledSubmitterStopsWaitingWithNothing() async {
        let queue = SubmissionQueue()
        let submitter = Task { await queue.take().count }
        submitter.cancel()
        #expect(await submitter.value == 0)
    }
}
